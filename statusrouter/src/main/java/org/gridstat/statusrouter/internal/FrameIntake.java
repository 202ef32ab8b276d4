package org.gridstat.statusrouter.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import org.gridstat.core.wire.FrameAdmission;
import org.gridstat.core.wire.RejectReason;

/**
 * What a router does with each received datagram, whichever socket read it: admit it in a
 * batch slot ({@link FrameAdmission}: validate, hop limit, stamp the next hop count), and on
 * the data-path loop copy the valid frame into a pooled buffer of its own length and, once the
 * read batch is over, forward the batch in one duty cycle; on another loop, queue its bytes in the loop's
 * {@link HandoffRing} and tell the data path after the batch. Every drop is counted by reason;
 * nothing is thrown. Garbage never takes a pooled buffer, and a queued event holds only its
 * frame's bytes, not a whole receive buffer. One instance per ingress socket, confined to that
 * socket's event loop.
 *
 * <p>The duty cycle reads its clock after the batch was read, never before: a frame read late in a
 * batch (the loop lost the CPU while reading) is not given a time before it arrived, which would
 * shorten an emulated link's delay or lengthen the time a frame seems to have waited.
 */
final class FrameIntake {
    /** Larger than any valid frame, so an oversize datagram arrives whole enough to be counted as such. */
    static final int DATAGRAM_BUFFER = 2048;

    private final DataPath dataPath;
    private final DataPathCounters counters;
    private final ByteBufAllocator allocator;
    private final FrameAdmission admission = new FrameAdmission();
    /** Most frames read before they are forwarded in one duty cycle; a socket's reads per wake-up. */
    static final int MAX_BATCH = 64;
    /**
     * The read batch, one slot of {@link #DATAGRAM_BUFFER} bytes per datagram: the socket receives
     * into the next free slot, a valid frame keeps its slot until the batch's duty cycle, an
     * invalid one gives it to the next datagram. Kept here rather than in pooled buffers: holding
     * a batch of pooled buffers at once churns the pool's pages, which allocates; a pooled buffer is
     * taken per frame only as it is forwarded. A JDK buffer, freed with the intake.
     */
    private final ByteBuffer slots = ByteBuffer.allocateDirect(MAX_BATCH * DATAGRAM_BUFFER);
    private final ByteBuf slotsBuf = Unpooled.wrappedBuffer(slots).clear();
    private final int[] batchLength = new int[MAX_BATCH];
    private final long[] batchVariable = new long[MAX_BATCH];
    private final long[] batchSourceTime = new long[MAX_BATCH];
    private final long[] batchDeadline = new long[MAX_BATCH];
    private int batched;
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

    /**
     * Where the caller puts the next datagram: at {@link #slotOffset()}, at most
     * {@link #DATAGRAM_BUFFER} bytes; position and limit stay untouched.
     */
    ByteBuffer slots() {
        return slots;
    }

    /** As {@link #slots()}, for copying from a Netty buffer. */
    ByteBuf slotsBuf() {
        return slotsBuf;
    }

    /** Where in {@link #slots()} the next datagram goes. */
    int slotOffset() {
        return batched * DATAGRAM_BUFFER;
    }

    /** Counts a datagram too long to copy into a batch slot. */
    void oversize() {
        counters.received();
        counters.dropped(RejectReason.OVERSIZE);
    }

    /** A receive failed: counted, and the socket keeps reading. */
    void receiveError() {
        counters.receiveError();
    }

    /** Takes the datagram of {@code length} bytes now at {@link #slotOffset()}. */
    void accept(int length) {
        counters.received();
        int offset = slotOffset();
        RejectReason reason = admission.admit(slots, offset, length);
        if (reason != RejectReason.NONE) {
            counters.dropped(reason);
            return;
        }
        if (ring != null) {
            if (ring.offer(slots, length)) { // with a ring nothing is batched: the frame is at 0
                handedOff = true;
            } else {
                counters.handoffDropped();
            }
            return;
        }
        batchLength[batched] = length;
        batchVariable[batched] = admission.variableId();
        batchSourceTime[batched] = admission.sourceTimeNanos();
        batchDeadline[batched] = admission.deadlineNanos();
        if (++batched == MAX_BATCH) {
            forwardBatch();
        }
    }

    /** Forwards the frames read so far in one duty cycle, whose clock is read now. */
    private void forwardBatch() {
        if (batched == 0) {
            return;
        }
        int n = batched;
        batched = 0; // first: a frame that fails below is not forwarded again with the next batch
        dataPath.beginCycle();
        for (int i = 0; i < n; i++) {
            int length = batchLength[i];
            ByteBuf frame = allocator.directBuffer(length, length);
            try {
                frame.writeBytes(slotsBuf, i * DATAGRAM_BUFFER, length);
                int queued = dataPath.forward(frame, batchVariable[i], batchSourceTime[i], batchDeadline[i]);
                if (queued < 0) {
                    counters.refused(queued);
                }
            } finally {
                frame.release();
            }
        }
        dataPath.endCycle();
    }

    /** After a batch of reads: forwards it in one duty cycle, or tells the data path of hand-offs. */
    void readComplete() {
        if (handedOff) {
            handedOff = false;
            dataPath.handedOff();
        }
        forwardBatch();
    }
}
