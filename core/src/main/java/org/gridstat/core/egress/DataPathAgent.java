package org.gridstat.core.egress;

import java.util.List;
import java.util.function.IntConsumer;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.time.Clock;
import org.gridstat.core.time.NanoClock;
import org.gridstat.core.time.Saturating;

/**
 * A router's data path as one agent with one duty cycle, after Aeron's agents. Each cycle reads
 * both clocks once ({@link #beginCycle}), takes the cycle's input (frames, through
 * {@link #forward}), then in {@link #doWork} applies at most {@code commandsPerCycle} queued flow
 * commands, runs the estimators when their period is up, pumps every link that got events or
 * whose wake time has come, and asks its {@link WakeupService} for the next cycle. The Netty data
 * plane and the simulator both drive this class; neither decides on its own when the scheduler
 * runs. Confined to the data-path thread.
 *
 * @param <E> the event type
 */
public final class DataPathAgent<E> {
    /**
     * Events queued before the touched links are pumped within one cycle. Below the default flow
     * buffer (20), so a burst arriving faster than a link drains cannot overflow a flow that the
     * link would serve at once.
     */
    public static final int PUMP_BATCH = 16;
    /** Flow commands applied per duty cycle: a resync of thousands of flows cannot stall forwarding. */
    public static final int DEFAULT_COMMANDS_PER_CYCLE = 64;

    private final ForwardingEngine<E> engine;
    private final EgressPump<E>[] pumps;
    private final WakeupService wakeups;
    private final NanoClock monoClock;
    private final Clock epochClock;
    private final int commandsPerCycle;
    private final long estimatorPeriod;
    /** When each link next has work, on the monotonic clock; 0 after an event or a flow change. */
    private final long[] wakeAt;
    private final IntConsumer pumpLink = this::pumpLink;
    private final IntConsumer pumpLinkMidCycle = this::pumpLinkMidCycle;
    private long mono;
    private long epoch;
    private long nextEstimatorTick;
    private long requested = Long.MIN_VALUE;
    private int queuedSincePump;

    @SuppressWarnings("unchecked")
    public DataPathAgent(ForwardingEngine<E> engine, List<EgressPump<E>> pumps, WakeupService wakeups,
                         NanoClock monoClock, Clock epochClock, int commandsPerCycle, long estimatorPeriodNanos) {
        if (pumps.size() != engine.linkCount()) {
            throw new IllegalArgumentException(pumps.size() + " pumps for " + engine.linkCount() + " links");
        }
        if (commandsPerCycle < 1 || estimatorPeriodNanos <= 0) {
            throw new IllegalArgumentException("commands per cycle and the estimator period must be positive");
        }
        this.engine = engine;
        this.pumps = pumps.toArray(new EgressPump[0]);
        for (int i = 0; i < this.pumps.length; i++) {
            if (this.pumps[i].link() != i) {
                throw new IllegalArgumentException("pump " + i + " serves link " + this.pumps[i].link());
            }
        }
        this.wakeups = wakeups;
        this.monoClock = monoClock;
        this.epochClock = epochClock;
        this.commandsPerCycle = commandsPerCycle;
        this.estimatorPeriod = estimatorPeriodNanos;
        this.wakeAt = new long[this.pumps.length];
        beginCycle();
        this.nextEstimatorTick = Saturating.add(mono, estimatorPeriod);
    }

    /** Starts a duty cycle: reads the monotonic and the epoch clock, once each. */
    public void beginCycle() {
        mono = monoClock.nanoTime();
        epoch = epochClock.nanos();
    }

    /** The cycle's monotonic time. */
    public long monoNow() {
        return mono;
    }

    /** The cycle's epoch time. */
    public long epochNow() {
        return epoch;
    }

    /**
     * Forwards one admitted event at the cycle's time; see {@link ForwardingEngine#forward}. Every
     * {@value #PUMP_BATCH} queued copies the links that got them are pumped, so a long read batch
     * neither overflows a flow nor holds its first events back.
     */
    public int forward(long variableId, long sourceTimeNanos, long e2eDeadline, E event, int bytes) {
        int queued = engine.forward(variableId, sourceTimeNanos, e2eDeadline, event, bytes, epoch, mono);
        if (queued > 0 && (queuedSincePump += queued) >= PUMP_BATCH) {
            queuedSincePump = 0;
            engine.drainTouched(pumpLinkMidCycle);
            // Every link's open datagram ages by the cycle's copies, not by its own: one the rest of
            // the batch does not touch is closed as soon as one that is.
            for (int i = 0; i < pumps.length; i++) {
                if (pumps[i].holdsOpen()) {
                    pumps[i].ageOpenDatagram(mono);
                }
            }
        }
        return queued;
    }

    /** The link's transmitter drained: it has room again. */
    public void linkWritable(int link) {
        wakeAt[link] = 0;
    }

    /** The rest of the duty cycle; see the class comment. Returns the time of the next wake-up asked for. */
    public long doWork() {
        if (engine.applyCommands(mono, commandsPerCycle) > 0) {
            // A flow change can free, reorder or empty any link.
            java.util.Arrays.fill(wakeAt, 0);
        }
        if (mono >= nextEstimatorTick) {
            engine.tick(mono);
            nextEstimatorTick = Saturating.add(mono, estimatorPeriod);
        }
        queuedSincePump = 0;
        engine.drainTouched(pumpLink);
        long next = nextEstimatorTick;
        for (int i = 0; i < pumps.length; i++) {
            if (wakeAt[i] <= mono || pumps[i].holdsOpen()) {
                pumpLink(i); // due, or a datagram a mid-cycle pump left open: closed and sent now
            }
            next = Math.min(next, wakeAt[i]);
        }
        if (engine.hasCommands()) {
            next = mono; // more commands than one cycle takes: come back at once
        }
        if (next != requested || next <= mono) {
            requested = next;
            wakeups.wakeAt(next);
        }
        return next;
    }

    private void pumpLink(int link) {
        wakeAt[link] = pumps[link].pump(mono);
    }

    private void pumpLinkMidCycle(int link) {
        wakeAt[link] = pumps[link].pump(mono, false);
    }

    public EgressPump<E> pump(int link) {
        return pumps[link];
    }

    public ForwardingEngine<E> engine() {
        return engine;
    }

    /** Releases what the links hold; on the data-path thread, when the router stops. */
    public void close() {
        for (EgressPump<E> p : pumps) {
            p.discard();
        }
        engine.close();
    }
}
