package org.gridstat.statusrouter.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import org.gridstat.core.wire.DatagramReader;
import org.gridstat.core.wire.FrameAdmission;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.core.wire.WireFormat;

/**
 * What a router does with each received datagram, whichever socket read it: walk its events (a
 * lone frame, or a batch: {@link DatagramReader}), admit each where it lies ({@link FrameAdmission}:
 * validate, hop limit, stamp the next hop count), and on the data-path loop copy each valid event
 * into an event buffer of the data path's own and, once the read batch is over, forward the batch in
 * one duty cycle; on another loop, queue each event's bytes in the loop's {@link HandoffRing} and
 * tell the data path after each datagram. Every drop is counted by reason, an event of a batch on its
 * own; nothing is thrown. Garbage never takes an event buffer, and a queued event holds only its
 * frame's bytes, not a whole receive buffer. One instance per ingress socket, confined to that
 * socket's event loop.
 *
 * <p>The duty cycle reads its clock after the batch was read, never before: a frame read late in a
 * batch (the loop lost the CPU while reading) is not given a time before it arrived, which would
 * shorten an emulated link's delay or lengthen the time a frame seems to have waited.
 */
final class FrameIntake {
    /**
     * Room for the next datagram: more than the largest UDP datagram, so an oversize one arrives
     * whole enough to be counted as such.
     */
    static final int DATAGRAM_BUFFER = 65_536;
    /** Most datagrams read before they are forwarded in one duty cycle; a socket's reads per wake-up. */
    static final int MAX_BATCH = 64;
    /** The read batch's bytes: datagrams lie one after another, each where the socket received it. */
    private static final int SLAB = 256 * 1024 + DATAGRAM_BUFFER;
    /** Most events a read batch holds; forwarded before a datagram could overrun it. */
    private static final int MAX_EVENTS = 4096;

    private final DataPath dataPath;
    private final DataPathCounters counters;
    private final DatagramReader reader = new DatagramReader();
    private final FrameAdmission admission = new FrameAdmission();
    /**
     * The read batch: the socket receives each datagram at {@link #slotOffset()}; a datagram with a
     * valid event keeps its bytes until the batch's duty cycle, one with none gives them to the next
     * datagram. Kept here rather than in event buffers: holding a batch of Netty's pooled buffers at
     * once churned the pool's pages, which allocated; an event buffer is taken per event only as it is
     * forwarded. A JDK buffer, freed with the intake.
     */
    private ByteBuffer slots = ByteBuffer.allocateDirect(SLAB);
    private ByteBuf slotsBuf = Unpooled.wrappedBuffer(slots).clear();
    private final int[] eventOffset = new int[MAX_EVENTS];
    private final int[] eventLength = new int[MAX_EVENTS];
    private final long[] eventVariable = new long[MAX_EVENTS];
    private final long[] eventSourceTime = new long[MAX_EVENTS];
    private final long[] eventDeadline = new long[MAX_EVENTS];
    private int events;
    private int datagrams;
    private int fill;
    /** Set on a loop other than the data path's: valid events go there instead. */
    private final HandoffRing ring;
    private boolean handedOff;

    /** For the data-path loop: valid events are copied into the data path's {@link EventBuffers}. */
    FrameIntake(DataPath dataPath, DataPathCounters counters) {
        this(dataPath, counters, null);
    }

    /**
     * For a loop other than the data path's: valid events are queued in {@code ring} and the data
     * path is told once per batch of reads.
     */
    FrameIntake(DataPath dataPath, DataPathCounters counters, HandoffRing ring) {
        this.dataPath = dataPath;
        this.counters = counters;
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
        return fill;
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

    /**
     * Lays the slab out as {@link #MAX_BATCH} fixed slots of {@link #DATAGRAM_BUFFER} bytes, for a
     * socket that receives a batch of datagrams with one system call; before anything is read.
     *
     * @return the batched receive into those slots, or {@code null} where it is unavailable (the
     *     slab stays as it was)
     */
    BatchedReceive fixedSlots() {
        ByteBuffer fixed = ByteBuffer.allocateDirect(MAX_BATCH * DATAGRAM_BUFFER);
        BatchedReceive receive = BatchedReceive.into(fixed, DATAGRAM_BUFFER, MAX_BATCH);
        if (receive != null) {
            slots = fixed;
            slotsBuf = Unpooled.wrappedBuffer(fixed).clear();
        }
        return receive;
    }

    /** Takes the datagram of {@code length} bytes now at {@link #slotOffset()}. */
    void accept(int length) {
        acceptAt(fill, length, true);
    }

    /** Takes the datagram of {@code length} bytes in fixed slot {@code slot} (see {@link #fixedSlots()}). */
    void acceptSlot(int slot, int length) {
        acceptAt(slot * DATAGRAM_BUFFER, length, false);
    }

    /**
     * Takes the buffer of {@code length} bytes in fixed slot {@code slot}, read from a socket with
     * UDP_GRO on: each datagram the kernel coalesced into it ({@code segmentSize} bytes each, the
     * last maybe shorter; 0: a lone datagram) is taken as if it had arrived alone, so every count,
     * check and drop stays per datagram. See {@link CoalescedBuffer} for a segment size that
     * cannot be the kernel's.
     */
    void acceptSlot(int slot, int length, int segmentSize) {
        int at = slot * DATAGRAM_BUFFER;
        int n = CoalescedBuffer.datagrams(length, segmentSize);
        if (n == 1) {
            acceptAt(at, length, false);
            return;
        }
        counters.coalesced();
        for (int i = 0, offset = 0; i < n; i++, offset += segmentSize) {
            acceptAt(at + offset, Math.min(segmentSize, length - offset), false);
        }
    }

    /** @param packed whether datagrams are laid one after another from {@link #slotOffset()} */
    private void acceptAt(int offset, int length, boolean packed) {
        RejectReason framing = reader.open(slots, offset, length);
        if (framing != RejectReason.NONE) {
            counters.received();
            counters.dropped(framing);
            return;
        }
        if (reader.isBatch()) {
            counters.batchReceived();
        }
        boolean kept = false;
        while (reader.next()) {
            counters.received();
            int at = reader.eventOffset();
            int eventBytes = reader.eventLength();
            RejectReason reason = admission.admit(slots, at, eventBytes);
            if (reason != RejectReason.NONE) {
                counters.dropped(reason);
                continue;
            }
            if (ring != null) {
                if (ring.offer(slots, at, eventBytes)) {
                    handedOff = true;
                } else {
                    counters.handoffDropped();
                }
                continue;
            }
            eventOffset[events] = at;
            eventLength[events] = eventBytes;
            eventVariable[events] = admission.variableId();
            eventSourceTime[events] = admission.sourceTimeNanos();
            eventDeadline[events] = admission.deadlineNanos();
            events++;
            kept = true;
        }
        if (handedOff) {
            // At once, not after the read batch: 64 datagrams of batches can hold more events than
            // the ring, and the data path drains it while this loop reads on.
            handedOff = false;
            dataPath.handedOff();
        }
        if (kept) { // with a ring nothing is kept: every datagram is received at 0
            if (packed) {
                fill = (offset + length + 7) & ~7;
            }
            if (++datagrams == MAX_BATCH || (packed && fill + DATAGRAM_BUFFER > SLAB)
                    || events + WireFormat.MAX_BATCH_EVENTS > MAX_EVENTS) {
                forwardBatch();
            }
        }
    }

    /** Forwards the events read so far in one duty cycle, whose clock is read now. */
    private void forwardBatch() {
        if (events == 0) {
            return;
        }
        int n = events;
        events = 0; // first: an event that fails below is not forwarded again with the next batch
        datagrams = 0;
        fill = 0;
        dataPath.beginCycle();
        for (int i = 0; i < n; i++) {
            int length = eventLength[i];
            ByteBuf frame = dataPath.eventBuffers().take(length);
            try {
                frame.writeBytes(slotsBuf, eventOffset[i], length);
                int queued = dataPath.forward(frame, eventVariable[i], eventSourceTime[i], eventDeadline[i]);
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
