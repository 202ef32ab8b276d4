package org.gridstat.gateway.c37118.config;

import static org.junit.jupiter.api.Assertions.*;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.Decoded;

/**
 * Whatever bytes arrive, the CFG-1/2 decoder answers a frame or a reason and never throws; what
 * it accepts re-encodes to the same bytes and yields a data layout. Random bytes rarely carry a
 * valid SYNC, FRAMESIZE and CRC, so each input is also tried with those fixed.
 */
class ConfigFrameCodecFuzzTest {
    private final ConfigFrameCodec codec = new ConfigFrameCodec();

    @FuzzTest(maxDuration = "10s")
    void decodeArbitraryConfigurations(byte[] data) {
        check(data);
        if (data.length >= CommonHeader.MIN_FRAME_SIZE && data.length <= CommonHeader.MAX_FRAME_SIZE) {
            ByteBuffer b = ByteBuffer.wrap(data);
            b.put(0, (byte) 0xAA).put(1, (byte) ((data[1] & 0x10) == 0 ? 0x31 : 0x22)).putShort(2, (short) data.length);
            CommonHeader.seal(b, 0, data.length);
            check(data);
        }
    }

    private void check(byte[] data) {
        Decoded<ConfigFrame> d = codec.decode(ByteBuffer.wrap(data), 0, data.length);
        assertNotNull(d);
        if (d.ok()) {
            assertArrayEquals(data, ConfigFrameCodec.encode(d.frame()));
            assertTrue(DataLayout.of(d.frame()).frameSize() <= CommonHeader.MAX_FRAME_SIZE);
        }
    }
}
