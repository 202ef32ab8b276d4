package org.gridstat.core.egress;

import java.util.function.ToIntFunction;
import org.gridstat.core.emulation.LinkEmulator;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.EventReleaser;
import org.gridstat.core.stats.CounterArray;
import org.gridstat.core.stats.CounterSnapshot;
import org.gridstat.core.wire.BatchHeaderWriter;
import org.gridstat.core.wire.WireFormat;

/**
 * One out-link's sending side: takes from the link's scheduler what may go now, packs it into
 * datagrams of at most the link's MTU, hands them to the {@link Transmitter} while it is writable,
 * flushes, and says when the link next has work. Packing never waits: what one duty cycle
 * releases leaves in that cycle, a lone event alone, several together in as few datagrams as fit
 * (in the scheduler's order; a datagram closes early where the next event takes another lane).
 * A batch's framing bytes are charged to the link when its datagram is sent. With emulation on,
 * each datagram's fate comes from a {@link LinkEmulator} (it is serialized, lost or delayed
 * whole), and datagrams that arrive later wait in a bounded delay line until then. Driven by its
 * {@link DataPathAgent} on the data-path thread, with that cycle's monotonic time; a router and
 * the simulator drive the same pump, so both call the scheduler at the same moments.
 *
 * @param <E> the event type
 */
public final class EgressPump<E> {
    /** Copies an emulated link may hold in flight; more are dropped and counted. */
    public static final int DELAY_LINE = 65_536;
    /** A link's datagram size unless configured: a 1500-byte Ethernet MTU less IPv4 and UDP headers. */
    public static final int DEFAULT_MTU = WireFormat.MAX_FRAME_LENGTH;

    private final ForwardingEngine<E> engine;
    private final int link;
    private final Transmitter<E> transmitter;
    private final EventReleaser<E> releaser;
    private final ToIntFunction<E> sizeOf;
    private final LinkEmulator emulator;
    private final int mtu;
    private final CounterArray counters = new CounterArray(LinkCounter.values().length);

    // The datagram being packed: its events in order, their frame bytes, its lane.
    private final Object[] packed;
    private int packedCount;
    private int packedBytes;
    private int packedLane;
    /** Mid-cycle pumps the open datagram has been kept through. */
    private int openPumps;
    /** Whether the datagram being packed holds an HRT, LRT or control event: it never stays open. */
    private boolean packedUrgent;
    /** Most mid-cycle pumps an open datagram is kept through: at 16 copies a pump, 64 copies' work. */
    static final int OPEN_PUMPS = 4;

    // Delay line: copies, their arrival times, lanes and datagram ends, in order (an emulated link delivers in order).
    private final Object[] delayed;
    private final long[] due;
    private final byte[] delayedLane;
    private final boolean[] endsDatagram;
    private int delayHead;
    private int delayCount;

    /** A pump for datagrams of {@link #DEFAULT_MTU} bytes. */
    public EgressPump(ForwardingEngine<E> engine, int link, Transmitter<E> transmitter, EventReleaser<E> releaser,
                      ToIntFunction<E> sizeOf, LinkEmulator emulator) {
        this(engine, link, transmitter, releaser, sizeOf, emulator, DEFAULT_MTU);
    }

    /**
     * @param sizeOf   an event's frame length in bytes, for packing and the emulator's serialization
     * @param emulator the link's emulation, or {@code null} for a real link
     * @param mtu      the largest datagram the link carries, {@link WireFormat#MAX_FRAME_LENGTH} to
     *                 {@link WireFormat#MAX_DATAGRAM_LENGTH} bytes; an event travels alone when no
     *                 other fits beside it
     */
    public EgressPump(ForwardingEngine<E> engine, int link, Transmitter<E> transmitter, EventReleaser<E> releaser,
                      ToIntFunction<E> sizeOf, LinkEmulator emulator, int mtu) {
        if (mtu < WireFormat.MAX_FRAME_LENGTH || mtu > WireFormat.MAX_DATAGRAM_LENGTH) {
            throw new IllegalArgumentException("a link's MTU must be " + WireFormat.MAX_FRAME_LENGTH + ".."
                    + WireFormat.MAX_DATAGRAM_LENGTH + " bytes, got " + mtu);
        }
        this.engine = engine;
        this.link = link;
        this.transmitter = transmitter;
        this.releaser = releaser;
        this.sizeOf = sizeOf;
        this.emulator = emulator;
        this.mtu = mtu;
        this.packed = new Object[Math.min(WireFormat.MAX_BATCH_EVENTS,
                (mtu - WireFormat.BATCH_HEADER_LENGTH) / (WireFormat.HEADER_LENGTH + WireFormat.BATCH_LENGTH_ENTRY))];
        this.delayed = emulator != null ? new Object[DELAY_LINE] : null;
        this.due = emulator != null ? new long[DELAY_LINE] : null;
        this.delayedLane = emulator != null ? new byte[DELAY_LINE] : null;
        this.endsDatagram = emulator != null ? new boolean[DELAY_LINE] : null;
    }

    public int link() {
        return link;
    }

    /**
     * Sends what may go at {@code now}, at the end of a duty cycle: first what the delay line owes,
     * then what the scheduler releases, packed, while the transmitter takes it; the last datagram
     * is closed and everything flushed.
     *
     * @return when the link next has work: {@link Long#MAX_VALUE} if nothing waits, or if the
     *     transmitter is full (its owner tells the agent when it drains)
     */
    public long pump(long now) {
        return pump(now, true);
    }

    /**
     * As {@link #pump(long)}; in the middle of a duty cycle ({@code endOfCycle} false), the last
     * datagram may stay open for the next of the cycle's events, if it holds best effort only: a
     * long read batch fills its datagrams instead of cutting one every few events. The agent ages
     * an open datagram at every pump of the cycle ({@link #ageOpenDatagram}) and closes it after
     * {@value #OPEN_PUMPS} of them, and ends every cycle with a {@code pump(now)} of each link left
     * open, so no event waits longer than a few dozen events' work; an HRT, LRT or control event
     * never waits for packing at all. What is closed is flushed at once.
     */
    public long pump(long now, boolean endOfCycle) {
        boolean wrote = false;
        while (delayCount > 0 && due[delayHead] <= now && transmitter.writable()) {
            wrote = true;
            boolean end;
            do {
                int lane = delayedLane[delayHead];
                end = endsDatagram[delayHead];
                send(takeDelayed(), lane);
            } while (!end);
            endDatagram();
        }
        E event;
        while (transmitter.writable() && (event = engine.dequeue(link, now)) != null) {
            ServiceClass flowClass = engine.dequeuedClass(link);
            int lane = transmitter.lane(flowClass);
            int size = sizeOf.applyAsInt(event);
            if (packedCount > 0 && (lane != packedLane || !fits(size))) {
                wrote |= closeDatagram(now);
            }
            packedLane = lane;
            packedUrgent |= flowClass != ServiceClass.BE;
            packed[packedCount++] = event;
            packedBytes += size;
        }
        if (packedCount > 0 && (endOfCycle || packedUrgent || openPumps >= OPEN_PUMPS)) {
            wrote |= closeDatagram(now);
        }
        if (wrote) {
            transmitter.flush();
        }
        if (!transmitter.writable()) {
            return Long.MAX_VALUE;
        }
        long next = engine.nextWakeNanos(link, now);
        return delayCount > 0 ? Math.min(next, due[delayHead]) : next;
    }

    /** Whether a mid-cycle pump left a datagram open: the cycle must end with a {@link #pump(long)}. */
    public boolean holdsOpen() {
        return packedCount > 0;
    }

    /**
     * One more of the cycle's pumps has passed with this link's datagram open; after
     * {@value #OPEN_PUMPS} of them it is closed and sent.
     */
    public void ageOpenDatagram(long now) {
        if (packedCount > 0 && ++openPumps >= OPEN_PUMPS && closeDatagram(now)) {
            transmitter.flush();
        }
    }

    private boolean fits(int size) {
        return packedCount < packed.length
                && BatchHeaderWriter.headerLength(packedCount + 1) + packedBytes + size <= mtu;
    }

    /** Sends, delays or loses the packed datagram; returns whether anything was written. */
    private boolean closeDatagram(long now) {
        int n = packedCount;
        // The link carries the datagram's IP and UDP headers (and a batch's header) beside its
        // frames: charged to the pacer, which would otherwise overrun the wire by them.
        int framing = WireFormat.DATAGRAM_OVERHEAD + (n > 1 ? BatchHeaderWriter.headerLength(n) : 0);
        engine.chargeDatagram(link, framing, n, now);
        int bytes = packedBytes + framing;
        packedCount = 0;
        packedBytes = 0;
        openPumps = 0;
        packedUrgent = false;
        if (emulator == null) {
            sendPacked(n);
            return true;
        }
        long arrival = emulator.transmit(now, bytes);
        if (arrival == LinkEmulator.LOST) {
            counters.add(LinkCounter.EMULATION_LOST.ordinal(), n);
            releasePacked(n);
            return false;
        }
        if (arrival <= now && delayCount == 0) {
            sendPacked(n);
            return true;
        }
        if (delayCount + n > DELAY_LINE) {
            counters.add(LinkCounter.DELAY_LINE_FULL.ordinal(), n);
            releasePacked(n);
            return false;
        }
        for (int i = 0; i < n; i++) {
            int at = (delayHead + delayCount) & (DELAY_LINE - 1);
            delayed[at] = packed[i];
            packed[i] = null;
            due[at] = arrival;
            delayedLane[at] = (byte) packedLane;
            endsDatagram[at] = i == n - 1;
            delayCount++;
        }
        return false;
    }

    @SuppressWarnings("unchecked")
    private void sendPacked(int n) {
        for (int i = 0; i < n; i++) {
            E e = (E) packed[i];
            packed[i] = null;
            send(e, packedLane);
        }
        endDatagram();
    }

    @SuppressWarnings("unchecked")
    private void releasePacked(int n) {
        for (int i = 0; i < n; i++) {
            E e = (E) packed[i];
            packed[i] = null;
            releaser.release(e);
        }
    }

    private void send(E event, int lane) {
        counters.increment(LinkCounter.SENT.ordinal());
        transmitter.write(event, lane);
    }

    private void endDatagram() {
        counters.increment(LinkCounter.DATAGRAMS.ordinal());
        transmitter.endDatagram();
    }

    @SuppressWarnings("unchecked")
    private E takeDelayed() {
        E e = (E) delayed[delayHead];
        delayed[delayHead] = null;
        delayHead = (delayHead + 1) & (DELAY_LINE - 1);
        delayCount--;
        return e;
    }

    /** A send the operating system refused, reported by the transmitter on the data-path thread. */
    public void sendFailed() {
        counters.increment(LinkCounter.SEND_ERRORS.ordinal());
    }

    /** Copies waiting in the delay line. */
    public int delayed() {
        return delayCount;
    }

    /** This link's counters; readable from any thread. */
    public CounterSnapshot<LinkCounter> counters() {
        return CounterSnapshot.read(LinkCounter.class, counters);
    }

    /** Releases what waits in the delay line or an open datagram; when the link closes, on the data-path thread. */
    public void discard() {
        releasePacked(packedCount);
        packedCount = 0;
        packedBytes = 0;
        while (delayCount > 0) {
            releaser.release(takeDelayed());
        }
    }
}
