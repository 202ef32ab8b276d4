package org.gridstat.core.egress;

import java.util.function.ToIntFunction;
import org.gridstat.core.emulation.LinkEmulator;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.sched.EventReleaser;
import org.gridstat.core.stats.CounterArray;
import org.gridstat.core.stats.CounterSnapshot;

/**
 * One out-link's sending side: takes from the link's scheduler what may go now, hands it to the
 * {@link Transmitter} while it is writable, flushes the batch, and says when the link next has
 * work. With emulation on, each copy's fate comes from a {@link LinkEmulator}, and copies that
 * arrive later wait in a bounded delay line until then. Driven by its {@link DataPathAgent} on the
 * data-path thread, with that cycle's monotonic time; a router and the simulator drive the same
 * pump, so both call the scheduler at the same moments.
 *
 * @param <E> the event type
 */
public final class EgressPump<E> {
    /** Copies an emulated link may hold in flight; more are dropped and counted. */
    public static final int DELAY_LINE = 65_536;

    private final ForwardingEngine<E> engine;
    private final int link;
    private final Transmitter<E> transmitter;
    private final EventReleaser<E> releaser;
    private final ToIntFunction<E> sizeOf;
    private final LinkEmulator emulator;
    private final CounterArray counters = new CounterArray(LinkCounter.values().length);

    // Delay line: copies and their arrival times, in order (an emulated link delivers in order).
    private final Object[] delayed;
    private final long[] due;
    private int delayHead;
    private int delayCount;

    /**
     * @param emulator the link's emulation, or {@code null} for a real link
     * @param sizeOf   an event's length in bytes, for the emulator's serialization
     */
    public EgressPump(ForwardingEngine<E> engine, int link, Transmitter<E> transmitter, EventReleaser<E> releaser,
                      ToIntFunction<E> sizeOf, LinkEmulator emulator) {
        this.engine = engine;
        this.link = link;
        this.transmitter = transmitter;
        this.releaser = releaser;
        this.sizeOf = sizeOf;
        this.emulator = emulator;
        this.delayed = emulator != null ? new Object[DELAY_LINE] : null;
        this.due = emulator != null ? new long[DELAY_LINE] : null;
    }

    public int link() {
        return link;
    }

    /**
     * Sends what may go at {@code now}: first what the delay line owes, then what the scheduler
     * releases, while the transmitter takes it.
     *
     * @return when the link next has work: {@link Long#MAX_VALUE} if nothing waits, or if the
     *     transmitter is full (its owner tells the agent when it drains)
     */
    public long pump(long now) {
        boolean wrote = false;
        while (delayCount > 0 && due[delayHead] <= now && transmitter.writable()) {
            wrote = true;
            send(takeDelayed());
        }
        E event;
        while (transmitter.writable() && (event = engine.dequeue(link, now)) != null) {
            wrote |= emit(event, now);
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

    private boolean emit(E event, long now) {
        if (emulator == null) {
            send(event);
            return true;
        }
        long arrival = emulator.transmit(now, sizeOf.applyAsInt(event));
        if (arrival == LinkEmulator.LOST) {
            counters.increment(LinkCounter.EMULATION_LOST.ordinal());
            releaser.release(event);
            return false;
        }
        if (arrival <= now && delayCount == 0) {
            send(event);
            return true;
        }
        if (delayCount == DELAY_LINE) {
            counters.increment(LinkCounter.DELAY_LINE_FULL.ordinal());
            releaser.release(event);
            return false;
        }
        int at = (delayHead + delayCount) & (DELAY_LINE - 1);
        delayed[at] = event;
        due[at] = arrival;
        delayCount++;
        return false;
    }

    private void send(E event) {
        counters.increment(LinkCounter.SENT.ordinal());
        transmitter.write(event);
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

    /** Releases what waits in the delay line; when the link closes, on the data-path thread. */
    public void discard() {
        while (delayCount > 0) {
            releaser.release(takeDelayed());
        }
    }
}
