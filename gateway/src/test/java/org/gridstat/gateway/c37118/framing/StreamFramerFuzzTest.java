package org.gridstat.gateway.c37118.framing;

import static org.junit.jupiter.api.Assertions.*;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.c37118.frame.FrameType;

/**
 * Whatever bytes arrive, in whatever chunks, the framer hands out only frames that check, never
 * throws, and accounts for every byte: delivered, skipped or still buffered. The first byte picks
 * the chunk size, so splitting is fuzzed too. Seeds: whole frames of each type.
 */
class StreamFramerFuzzTest {
    @FuzzTest(maxDuration = "10s")
    void frameArbitraryStreams(byte[] data) {
        if (data.length == 0) {
            return;
        }
        long[] delivered = new long[1];
        StreamFramer framer = new StreamFramer(new FrameHandler() {
            @Override
            public void onFrame(FrameType type, ByteBuffer buffer, int offset, int length) {
                assertEquals(FrameReject.NONE, CommonHeader.check(buffer, offset, length));
                assertEquals(type, CommonHeader.type(buffer, offset));
                delivered[0] += length;
            }
        }, 16 + (data[0] & 0xFF) * 64);
        int chunk = 1 + (data[0] & 0x3F);
        for (int at = 1; at < data.length; at += chunk) {
            framer.accept(data, at, Math.min(chunk, data.length - at));
        }
        assertEquals(data.length - 1, framer.bytesIn());
        assertEquals(framer.bytesIn(), delivered[0] + framer.bytesSkipped() + framer.buffered());
        assertTrue(framer.buffered() < framer.maxFrameSize());
        framer.endOfStream();
        assertEquals(0, framer.buffered());
        assertEquals(framer.bytesIn(), delivered[0] + framer.bytesSkipped());
    }
}
