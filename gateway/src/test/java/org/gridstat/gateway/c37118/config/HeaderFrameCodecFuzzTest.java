package org.gridstat.gateway.c37118.config;

import static org.junit.jupiter.api.Assertions.*;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.Decoded;

/** The header decoder never throws; an accepted header re-encodes to the same bytes. */
class HeaderFrameCodecFuzzTest {
    @FuzzTest(maxDuration = "10s")
    void decodeArbitraryHeaders(byte[] data) {
        check(data);
        if (data.length >= CommonHeader.MIN_FRAME_SIZE && data.length <= CommonHeader.MAX_FRAME_SIZE) {
            ByteBuffer b = ByteBuffer.wrap(data);
            b.put(0, (byte) 0xAA).put(1, (byte) 0x12).putShort(2, (short) data.length);
            CommonHeader.seal(b, 0, data.length);
            check(data);
        }
    }

    private static void check(byte[] data) {
        Decoded<HeaderFrame> d = HeaderFrameCodec.decode(ByteBuffer.wrap(data), 0, data.length);
        assertNotNull(d);
        if (d.ok()) {
            assertArrayEquals(data, HeaderFrameCodec.encode(d.frame()));
        }
    }
}
