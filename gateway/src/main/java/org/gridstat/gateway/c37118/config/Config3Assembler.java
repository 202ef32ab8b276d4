package org.gridstat.gateway.c37118.config;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.Decoded;
import org.gridstat.gateway.c37118.frame.FrameReject;

/**
 * Joins a CFG-3 configuration a PMU split across frames: CONT_IDX 1 first, then 2, 3, ... in
 * order, 0xFFFF last; a frame with CONT_IDX 0 is whole by itself. A fragment out of sequence, from
 * another stream, or past the size limit drops what was gathered and is refused. One per stream.
 */
public final class Config3Assembler {
    /** Enough for every PMU of a large PDC; bounds what one misbehaving peer can make us hold. */
    public static final int DEFAULT_MAX_BODY = 1 << 20;

    private final Config3FrameCodec codec = new Config3FrameCodec();
    private final int maxBody;
    private byte[] body = new byte[0];
    private int bodyLength;
    private int expected = Config3FrameCodec.FIRST_FRAGMENT;
    private int version;
    private int idCode;
    private long soc;
    private int fracSec;

    public Config3Assembler() {
        this(DEFAULT_MAX_BODY);
    }

    public Config3Assembler(int maxBody) {
        this.maxBody = maxBody;
    }

    /**
     * Offers one CFG-3 frame. Answers the whole configuration once its last fragment arrives, a
     * rejection, or null while more fragments are awaited.
     */
    public Decoded<Config3Frame> offer(ByteBuffer b, int offset, int length) {
        FrameReject reject = Config3FrameCodec.checkFrame(b, offset, length);
        if (reject != FrameReject.NONE) {
            return Decoded.rejected(reject);
        }
        int index = Config3FrameCodec.continuationIndex(b, offset);
        if (index == Config3FrameCodec.WHOLE) {
            reset();
            return codec.decode(b, offset, length);
        }
        boolean first = index == Config3FrameCodec.FIRST_FRAGMENT;
        if (first) {
            reset();
            version = CommonHeader.version(b, offset);
            idCode = CommonHeader.idCode(b, offset);
            soc = CommonHeader.soc(b, offset);
            fracSec = CommonHeader.fracSec(b, offset);
        } else if ((index != expected && index != Config3FrameCodec.LAST_FRAGMENT) || expected == Config3FrameCodec.FIRST_FRAGMENT
                || CommonHeader.idCode(b, offset) != idCode) {
            reset();
            return Decoded.rejected(FrameReject.CONTINUATION_OUT_OF_ORDER);
        }
        int from = offset + CommonHeader.LENGTH + 2;
        int n = length - CommonHeader.MIN_FRAME_SIZE - 2;
        if ((long) bodyLength + n > maxBody) {
            reset();
            return Decoded.rejected(FrameReject.CONTINUATION_OUT_OF_ORDER);
        }
        if (bodyLength + n > body.length) {
            body = Arrays.copyOf(body, Math.max(bodyLength + n, Math.min(maxBody, body.length * 2)));
        }
        b.get(from, body, bodyLength, n);
        bodyLength += n;
        if (index != Config3FrameCodec.LAST_FRAGMENT) {
            expected = index + 1;
            return null;
        }
        Decoded<Config3Frame> whole = codec.decodeBody(ByteBuffer.wrap(body, 0, bodyLength), 0, bodyLength,
                version, idCode, soc, fracSec);
        reset();
        return whole;
    }

    /** Whether fragments are held waiting for the rest. */
    public boolean pending() {
        return expected != Config3FrameCodec.FIRST_FRAGMENT;
    }

    private void reset() {
        bodyLength = 0;
        expected = Config3FrameCodec.FIRST_FRAGMENT;
        body = new byte[0];
    }
}
