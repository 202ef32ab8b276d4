package org.gridstat.statusrouter.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.core.wire.StatusEventDecoder;
import org.gridstat.core.wire.StatusEventEncoder;
import org.gridstat.core.wire.WireFormat;

/**
 * What a router does with each received datagram, whichever socket read it: validate it in a
 * scratch buffer, stamp the next hop count, and on the data-path loop copy the valid frame into a
 * pooled buffer of its own length and forward it; on another loop, queue its bytes in the loop's
 * {@link HandoffRing} and tell the data path after the batch. Every drop is counted by reason;
 * nothing is thrown. Garbage never takes a pooled buffer, and a queued event holds only its
 * frame's bytes, not a whole receive buffer. One instance per ingress socket, confined to that
 * socket's event loop.
 */
final class FrameIntake {
    /** Larger than any valid frame, so an oversize datagram arrives whole enough to be counted as such. */
    static final int DATAGRAM_BUFFER = 2048;

    private final DataPath dataPath;
    private final DataPathCounters counters;
    private final ByteBufAllocator allocator;
    private final StatusEventDecoder decoder = new StatusEventDecoder();
    private final StatusEventEncoder encoder = new StatusEventEncoder();
    private final ByteBuffer scratch = ByteBuffer.allocateDirect(DATAGRAM_BUFFER);
    private final ByteBuf scratchBuf = Unpooled.wrappedBuffer(scratch);
    private int undrained;
    /** Set on a loop other than the data path's: valid frames go there instead. */
    private final HandoffRing ring;
    private boolean handedOff;

    /**
     * @param allocator where valid frames are copied to; a pooled allocator whose buffers have a
     *     memory address copies without allocating (Netty 4.2's adaptive allocator makes an NIO
     *     view per copy)
     */
    FrameIntake(DataPath dataPath, DataPathCounters counters, ByteBufAllocator allocator) {
        this(dataPath, counters, allocator, null);
    }

    /**
     * For a loop other than the data path's: valid frames are queued in {@code ring} and the data
     * path is told once per batch of reads.
     */
    FrameIntake(DataPath dataPath, DataPathCounters counters, ByteBufAllocator allocator, HandoffRing ring) {
        this.dataPath = dataPath;
        this.counters = counters;
        this.allocator = allocator;
        this.ring = ring;
    }

    /** Where the caller puts the next datagram, at index 0; its position and limit stay untouched. */
    ByteBuffer scratch() {
        return scratch;
    }

    /** As {@link #scratch()}, for copying from a Netty buffer. */
    ByteBuf scratchBuf() {
        return scratchBuf;
    }

    /** Counts a datagram too long to copy into the scratch buffer. */
    void oversize() {
        counters.received();
        counters.dropped(RejectReason.OVERSIZE);
    }

    /** A receive failed: counted, and the socket keeps reading. */
    void receiveError() {
        counters.receiveError();
    }

    /** Takes the datagram of {@code length} bytes now in the scratch buffer. */
    void accept(int length) {
        counters.received();
        if (length > WireFormat.MAX_FRAME_LENGTH) {
            counters.dropped(RejectReason.OVERSIZE);
            return;
        }
        RejectReason reason = decoder.wrap(scratch, 0, length);
        if (reason != RejectReason.NONE) {
            counters.dropped(reason);
            return;
        }
        int hops = decoder.hopCount();
        if (hops >= WireFormat.MAX_HOP_COUNT) {
            counters.dropped(RejectReason.HOP_LIMIT);
            return;
        }
        encoder.wrapExisting(scratch, 0).hopCount(hops + 1).seal();
        if (ring != null) {
            if (ring.offer(scratch, length)) {
                handedOff = true;
            } else {
                counters.handoffDropped();
            }
            return;
        }
        ByteBuf frame = allocator.directBuffer(length, length);
        try {
            frame.writeBytes(scratchBuf, 0, length);
            if (dataPath.forward(frame, decoder.variableId(), decoder.sourceTimeNanos(), decoder.deadlineNanos()) < 0) {
                counters.dropped(RejectReason.UNKNOWN_VARIABLE);
            } else if (++undrained == DataPath.DRAIN_BATCH) {
                undrained = 0;
                dataPath.drainTouched();
            }
        } finally {
            frame.release();
        }
    }

    /** After a batch of reads: sends what the frames taken since the last drain made ready. */
    void readComplete() {
        if (handedOff) {
            handedOff = false;
            dataPath.handedOff();
        }
        if (undrained > 0) {
            undrained = 0;
            dataPath.drainTouched();
        }
    }
}
