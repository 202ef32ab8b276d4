package org.gridstat.gateway.c37118.command;

import java.nio.ByteBuffer;
import org.gridstat.gateway.c37118.frame.Bytes;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.Decoded;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.c37118.frame.FrameType;

/** Command frames: the common header, CMD (2), the optional EXTFRAME bytes, CHK. */
public final class CommandFrameCodec {
    public static final int MIN_FRAME_SIZE = CommonHeader.MIN_FRAME_SIZE + 2;

    private CommandFrameCodec() {
    }

    public static Decoded<CommandFrame> decode(ByteBuffer b, int offset, int length) {
        FrameReject reject = CommonHeader.check(b, offset, length);
        if (reject != FrameReject.NONE) {
            return Decoded.rejected(reject);
        }
        if (CommonHeader.type(b, offset) != FrameType.COMMAND) {
            return Decoded.rejected(FrameReject.WRONG_FRAME_TYPE);
        }
        if (length < MIN_FRAME_SIZE) {
            return Decoded.rejected(FrameReject.MALFORMED_BODY);
        }
        byte[] ext = new byte[length - MIN_FRAME_SIZE];
        b.get(offset + CommonHeader.LENGTH + 2, ext);
        return Decoded.of(new CommandFrame(CommonHeader.version(b, offset), CommonHeader.idCode(b, offset),
                CommonHeader.soc(b, offset), CommonHeader.fracSec(b, offset),
                Bytes.u16(b, offset + CommonHeader.LENGTH), ext));
    }

    public static byte[] encode(CommandFrame f) {
        int size = MIN_FRAME_SIZE + f.extendedFrameLength();
        if (size > CommonHeader.MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("EXTFRAME of " + f.extendedFrameLength() + " bytes exceeds FRAMESIZE");
        }
        ByteBuffer b = ByteBuffer.allocate(size);
        CommonHeader.write(b, 0, FrameType.COMMAND, f.version(), size, f.idCode(), f.soc(), f.fracSec());
        Bytes.put16(b, CommonHeader.LENGTH, f.command());
        b.put(CommonHeader.LENGTH + 2, f.extendedFrame());
        CommonHeader.seal(b, 0, size);
        return b.array();
    }
}
