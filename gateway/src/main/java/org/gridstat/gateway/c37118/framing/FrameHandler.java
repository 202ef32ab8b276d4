package org.gridstat.gateway.c37118.framing;

import java.nio.ByteBuffer;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.c37118.frame.FrameType;

/** What the framer hands whole frames, and rejections, to. */
public interface FrameHandler {
    /**
     * A whole frame with a valid sync, FRAMESIZE and CRC, at {@code offset} in {@code buffer}. The
     * buffer is the framer's own: its bytes are valid during this call only; copy what must outlive it.
     */
    void onFrame(FrameType type, ByteBuffer buffer, int offset, int length);

    /** Bytes dropped while resynchronising, and why; {@code bytes} may be 0 for a reason counted once. */
    default void onReject(FrameReject reason, int bytes) {
    }
}
