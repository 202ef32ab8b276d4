package org.gridstat.core.wire;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import org.gridstat.core.model.ServiceClass;
import org.junit.jupiter.api.Test;

class FrameAdmissionTest {
    private final FrameAdmission admission = new FrameAdmission();

    private static int frame(ByteBuffer b, int hops) {
        return new StatusEventEncoder().wrap(b, 0).variableId(9).sequence(1).sourceTimeNanos(1_790_000_000_000_000_000L)
                .deadlineNanos(1_790_000_000_050_000_000L).serviceClass(ServiceClass.HRT).hopCount(hops).doublePayload(1.5)
                .seal();
    }

    @Test
    void anAdmittedFrameCarriesTheNextHopCountAndAValidChecksum() {
        ByteBuffer b = ByteBuffer.allocateDirect(2048);
        int len = frame(b, 3);
        assertEquals(RejectReason.NONE, admission.admit(b, 0, len));
        assertEquals(9, admission.variableId());
        assertEquals(1_790_000_000_050_000_000L, admission.deadlineNanos());
        StatusEventDecoder d = new StatusEventDecoder();
        assertEquals(RejectReason.NONE, d.wrap(b, 0, len), "resealed");
        assertEquals(4, d.hopCount());
    }

    @Test
    void aFrameAtTheHopLimitIsALoopAndIsLeftUntouched() {
        ByteBuffer b = ByteBuffer.allocate(2048);
        int len = frame(b, WireFormat.MAX_HOP_COUNT);
        byte[] before = new byte[len];
        b.get(0, before);
        assertEquals(RejectReason.HOP_LIMIT, admission.admit(b, 0, len));
        byte[] after = new byte[len];
        b.get(0, after);
        assertArrayEquals(before, after);
    }

    @Test
    void oversizeAndCorruptFramesAreRefusedByReason() {
        ByteBuffer b = ByteBuffer.allocate(2048);
        int len = frame(b, 0);
        assertEquals(RejectReason.OVERSIZE, admission.admit(b, 0, WireFormat.MAX_FRAME_LENGTH + 1));
        b.put(len - 1, (byte) (b.get(len - 1) ^ 1));
        assertEquals(RejectReason.CHECKSUM_MISMATCH, admission.admit(b, 0, len));
    }
}
