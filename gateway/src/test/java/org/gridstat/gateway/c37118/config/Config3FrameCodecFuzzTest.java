package org.gridstat.gateway.c37118.config;

import static org.junit.jupiter.api.Assertions.*;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.Decoded;

/**
 * Whatever bytes arrive, the CFG-3 decoder and the fragment assembler answer and never throw;
 * an accepted configuration re-encodes to the same bytes. Each input is also tried with SYNC,
 * FRAMESIZE and CRC fixed, as a whole frame and as the fragments 1 and 0xFFFF of one.
 */
class Config3FrameCodecFuzzTest {
    private final Config3FrameCodec codec = new Config3FrameCodec();
    private final Config3Assembler assembler = new Config3Assembler(1 << 16);

    @FuzzTest(maxDuration = "10s")
    void decodeArbitraryConfigurations(byte[] data) {
        check(data);
        assembler.offer(ByteBuffer.wrap(data), 0, data.length);
        if (data.length >= CommonHeader.MIN_FRAME_SIZE + 2 && data.length <= CommonHeader.MAX_FRAME_SIZE) {
            ByteBuffer b = ByteBuffer.wrap(data);
            b.put(0, (byte) 0xAA).put(1, (byte) 0x52).putShort(2, (short) data.length).putShort(CommonHeader.LENGTH, (short) 0);
            CommonHeader.seal(b, 0, data.length);
            check(data);
            // the same body cut in two fragments
            int cut = CommonHeader.LENGTH + 2 + (data.length - CommonHeader.MIN_FRAME_SIZE - 2) / 2;
            byte[] first = fragment(data, CommonHeader.LENGTH + 2, cut, 1);
            byte[] last = fragment(data, cut, data.length - 2, 0xFFFF);
            assertNull(assembler.offer(ByteBuffer.wrap(first), 0, first.length));
            Decoded<Config3Frame> whole = assembler.offer(ByteBuffer.wrap(last), 0, last.length);
            assertNotNull(whole);
            assertEquals(codec.decode(b, 0, data.length).ok(), whole.ok());
        }
    }

    private static byte[] fragment(byte[] frame, int from, int to, int index) {
        int size = CommonHeader.MIN_FRAME_SIZE + 2 + (to - from);
        ByteBuffer b = ByteBuffer.allocate(size);
        b.put(frame, 0, CommonHeader.LENGTH).putShort((short) index).put(frame, from, to - from);
        b.putShort(2, (short) size);
        CommonHeader.seal(b, 0, size);
        return b.array();
    }

    private void check(byte[] data) {
        Decoded<Config3Frame> d = codec.decode(ByteBuffer.wrap(data), 0, data.length);
        assertNotNull(d);
        if (d.ok()) {
            assertArrayEquals(data, Config3FrameCodec.encode(d.frame()));
            assertTrue(DataLayout.of(d.frame()).frameSize() <= CommonHeader.MAX_FRAME_SIZE);
        }
    }
}
