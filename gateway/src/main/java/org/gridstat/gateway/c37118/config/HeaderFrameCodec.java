package org.gridstat.gateway.c37118.config;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.Decoded;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.c37118.frame.FrameType;

/** Header frames: the common header, the text, CHK. */
public final class HeaderFrameCodec {
    private HeaderFrameCodec() {
    }

    public static Decoded<HeaderFrame> decode(ByteBuffer b, int offset, int length) {
        FrameReject reject = CommonHeader.check(b, offset, length);
        if (reject != FrameReject.NONE) {
            return Decoded.rejected(reject);
        }
        if (CommonHeader.type(b, offset) != FrameType.HEADER) {
            return Decoded.rejected(FrameReject.WRONG_FRAME_TYPE);
        }
        byte[] text = new byte[length - CommonHeader.MIN_FRAME_SIZE];
        b.get(offset + CommonHeader.LENGTH, text);
        return Decoded.of(new HeaderFrame(CommonHeader.version(b, offset), CommonHeader.idCode(b, offset),
                CommonHeader.soc(b, offset), CommonHeader.fracSec(b, offset), new String(text, StandardCharsets.ISO_8859_1)));
    }

    public static byte[] encode(HeaderFrame f) {
        byte[] text = f.text().getBytes(StandardCharsets.ISO_8859_1);
        int size = CommonHeader.MIN_FRAME_SIZE + text.length;
        if (size > CommonHeader.MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("header text of " + text.length + " bytes exceeds FRAMESIZE");
        }
        ByteBuffer b = ByteBuffer.allocate(size);
        CommonHeader.write(b, 0, FrameType.HEADER, f.version(), size, f.idCode(), f.soc(), f.fracSec());
        b.put(CommonHeader.LENGTH, text);
        CommonHeader.seal(b, 0, size);
        return b.array();
    }
}
