package org.gridstat.gateway.c37118.command;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import org.gridstat.gateway.c37118.AnnexFrames;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.junit.jupiter.api.Test;

class CommandFrameCodecTest {
    @Test
    void decodesAndReencodesTheAnnexCommand() {
        byte[] f = AnnexFrames.bytes(AnnexFrames.COMMAND_DATA_ON);
        CommandFrame c = CommandFrameCodec.decode(ByteBuffer.wrap(f), 0, f.length).frame();
        assertEquals(CommandFrame.DATA_ON, c.command());
        assertEquals(7734, c.idCode());
        assertEquals(0, c.extendedFrameLength());
        assertArrayEquals(f, CommandFrameCodec.encode(c));
    }

    @Test
    void roundTripsEveryNamedCommandAndUserCodesInBothVersions() {
        int[] codes = {CommandFrame.DATA_OFF, CommandFrame.DATA_ON, CommandFrame.SEND_HEADER, CommandFrame.SEND_CONFIG_1,
                CommandFrame.SEND_CONFIG_2, CommandFrame.SEND_CONFIG_3, 0x00FF, 0x0FFF, 0xFFFF};
        for (int version = 1; version <= 2; version++) {
            for (int code : codes) {
                CommandFrame c = new CommandFrame(version, 3, 4, 5, code);
                byte[] f = CommandFrameCodec.encode(c);
                assertEquals(CommandFrameCodec.MIN_FRAME_SIZE, f.length);
                assertEquals(c, CommandFrameCodec.decode(ByteBuffer.wrap(f), 0, f.length).frame());
            }
        }
    }

    @Test
    void carriesAnExtendedFrame() {
        byte[] ext = {1, 2, 3, 4, 5};
        CommandFrame c = new CommandFrame(2, 3, 4, 5, CommandFrame.EXTENDED_FRAME, ext);
        byte[] f = CommandFrameCodec.encode(c);
        assertEquals(CommandFrameCodec.MIN_FRAME_SIZE + 5, f.length);
        CommandFrame back = CommandFrameCodec.decode(ByteBuffer.wrap(f), 0, f.length).frame();
        assertArrayEquals(ext, back.extendedFrame());
        assertEquals(c, back);
    }

    @Test
    void refusesAFrameTooShortForCmd() {
        ByteBuffer b = ByteBuffer.allocate(16);
        CommonHeader.write(b, 0, org.gridstat.gateway.c37118.frame.FrameType.COMMAND, 2, 16, 1, 0, 0);
        CommonHeader.seal(b, 0, 16);
        assertEquals(FrameReject.MALFORMED_BODY, CommandFrameCodec.decode(b, 0, 16).reject());
    }
}
