package org.gridstat.statusrouter.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import org.gridstat.core.wire.FrameAdmission;
import org.gridstat.core.wire.RejectReason;

/**
 * What a router does with each received datagram, whichever socket read it: admit it in a
 * scratch buffer ({@link FrameAdmission}: validate, hop limit, stamp the next hop count), and on
 * the data-path loop copy the valid frame into a pooled buffer of its own length and forward it
 * in the duty cycle its read batch opened; on another loop, queue its bytes in the loop's
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
    private final FrameAdmission admission = new FrameAdmission();
    private final ByteBuffer scratch = ByteBuffer.allocateDirect(DATAGRAM_BUFFER);
    private final ByteBuf scratchBuf = Unpooled.wrappedBuffer(scratch);
    /** A duty cycle is open on the data path for the current read batch. */
    private boolean cycleOpen;
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
        RejectReason reason = admission.admit(scratch, 0, length);
        if (reason != RejectReason.NONE) {
            counters.dropped(reason);
            return;
        }
        if (ring != null) {
            if (ring.offer(scratch, length)) {
                handedOff = true;
            } else {
                counters.handoffDropped();
            }
            return;
        }
        if (!cycleOpen) {
            cycleOpen = true;
            dataPath.beginCycle();
        }
        ByteBuf frame = allocator.directBuffer(length, length);
        try {
            frame.writeBytes(scratchBuf, 0, length);
            int queued = dataPath.forward(frame, admission.variableId(), admission.sourceTimeNanos(),
                    admission.deadlineNanos());
            if (queued < 0) {
                counters.refused(queued);
            }
        } finally {
            frame.release();
        }
    }

    /** After a batch of reads: closes the duty cycle the batch opened, or tells the data path of hand-offs. */
    void readComplete() {
        if (handedOff) {
            handedOff = false;
            dataPath.handedOff();
        }
        if (cycleOpen) {
            cycleOpen = false;
            dataPath.endCycle();
        }
    }
}
