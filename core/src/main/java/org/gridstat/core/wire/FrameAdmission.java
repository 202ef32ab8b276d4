package org.gridstat.core.wire;

import java.nio.ByteBuffer;

/**
 * What a router does to every received frame before it looks at its variable: validate it where
 * it lies, refuse a frame that has reached the hop limit (a routing loop), and stamp the next hop
 * count (resealing the checksum). One instance per receiving thread; nothing allocated per frame.
 * After {@link #admit} returns {@link RejectReason#NONE}, the accessors read the admitted frame.
 */
public final class FrameAdmission {
    private final StatusEventDecoder decoder = new StatusEventDecoder();
    private final StatusEventEncoder encoder = new StatusEventEncoder();

    /** Admits the frame of {@code length} bytes at {@code offset}, stamping its hop count in place. */
    public RejectReason admit(ByteBuffer buffer, int offset, int length) {
        if (length > WireFormat.MAX_FRAME_LENGTH) {
            return RejectReason.OVERSIZE;
        }
        RejectReason reason = decoder.wrap(buffer, offset, length);
        if (reason != RejectReason.NONE) {
            return reason;
        }
        int hops = decoder.hopCount();
        if (hops >= WireFormat.MAX_HOP_COUNT) {
            return RejectReason.HOP_LIMIT;
        }
        encoder.wrapExisting(buffer, offset).hopCount(hops + 1).seal();
        return RejectReason.NONE;
    }

    public long variableId() {
        return decoder.variableId();
    }

    public long sourceTimeNanos() {
        return decoder.sourceTimeNanos();
    }

    /** The end-to-end deadline on the epoch scale, 0 for none. */
    public long deadlineNanos() {
        return decoder.deadlineNanos();
    }

    public int hopCount() {
        return decoder.hopCount();
    }
}
