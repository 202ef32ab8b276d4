package org.gridstat.gateway.c37118.command;

import static org.junit.jupiter.api.Assertions.*;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.Decoded;

/** The command decoder never throws; an accepted command re-encodes to the same bytes. */
class CommandFrameCodecFuzzTest {
    @FuzzTest(maxDuration = "10s")
    void decodeArbitraryCommands(byte[] data) {
        check(data);
        if (data.length >= CommonHeader.MIN_FRAME_SIZE && data.length <= CommonHeader.MAX_FRAME_SIZE) {
            ByteBuffer b = ByteBuffer.wrap(data);
            b.put(0, (byte) 0xAA).put(1, (byte) 0x42).putShort(2, (short) data.length);
            CommonHeader.seal(b, 0, data.length);
            check(data);
        }
    }

    private static void check(byte[] data) {
        Decoded<CommandFrame> d = CommandFrameCodec.decode(ByteBuffer.wrap(data), 0, data.length);
        assertNotNull(d);
        if (d.ok()) {
            assertArrayEquals(data, CommandFrameCodec.encode(d.frame()));
        }
    }
}
