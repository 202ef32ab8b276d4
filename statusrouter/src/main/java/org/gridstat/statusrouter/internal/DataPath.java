package org.gridstat.statusrouter.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.EventLoop;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.time.Clock;
import org.gridstat.core.wire.WireFormat;

/**
 * The router's forwarding engine and its out-links, confined to one event loop (the data-path
 * thread). Ingress on that loop forwards directly; ingress on other loops hands validated frames
 * over through a bounded ring each, counted when full.
 */
final class DataPath {
    /** Frames each other ingress loop may have waiting for the data path (1,472 bytes a slot). */
    static final int HANDOFF_CAPACITY = 1024;
    /**
     * Frames queued before the links are drained. Below the default flow buffer (20), so a burst
     * arriving faster than a link drains cannot overflow a flow that the link would serve at once.
     */
    static final int DRAIN_BATCH = 16;

    final ForwardingEngine<ByteBuf> engine;
    final EgressLink[] links;
    private final EventLoop loop;
    private final Clock clock;
    /** Where frames handed over by other loops are copied to, on this loop (see {@link FrameIntake}). */
    private final ByteBufAllocator allocator = PooledByteBufAllocator.DEFAULT;
    /** One per other ingress loop; replaced, not changed, when one is added (before that loop reads). */
    private volatile HandoffRing[] rings = new HandoffRing[0];
    private final AtomicBoolean handoffScheduled = new AtomicBoolean();
    private final Runnable handoffTask = this::drainHandoff;
    /** Wakes this loop for handed-over frames without allocating; without one, a task is queued. */
    private HandoffSignal handoffSignal;
    private final DataPathCounters handoffCounters;

    DataPath(RouterSettings settings, EventLoop loop, Clock clock, DataPathCounters handoffCounters) {
        this.loop = loop;
        this.clock = clock;
        this.handoffCounters = handoffCounters;
        long now = clock.nanos();
        this.engine = new ForwardingEngine<>(settings.links.stream().map(l -> l.spec).toList(), settings.maxFlowsPerLink,
                ByteBufReferences.INSTANCE, settings.estimator, now);
        this.links = new EgressLink[settings.links.size()];
        for (int i = 0; i < links.length; i++) {
            links[i] = new EgressLink(settings.links.get(i), i, engine, clock);
        }
        for (FlowEntry f : settings.flows) {
            engine.submit(FlowCommand.install(f));
        }
        engine.applyCommands(now);
    }

    /**
     * Forwards one validated, restamped frame held by {@code frame}; the caller keeps its own
     * reference. Returns the copies queued, or -1 for a variable without flows.
     */
    int forward(ByteBuf frame, long variableId, long sourceTime, long deadline) {
        return engine.forward(variableId, sourceTime, deadline, frame, frame.readableBytes(), clock.nanos());
    }

    private final java.util.function.IntConsumer drainLink = this::drainLink;

    /** Sends what the links that got new events may send now; pacing timers look after the rest. */
    void drainTouched() {
        engine.drainTouched(drainLink);
    }

    private void drainLink(int index) {
        links[index].drain();
    }

    /** Sends what every link may send now: after flow changes, which can free or reorder any link. */
    void drainAll() {
        for (EgressLink l : links) {
            l.drain();
        }
    }

    /**
     * A ring for one other ingress loop to hand validated frames to this one; registered before
     * that loop reads anything.
     */
    HandoffRing newHandoffRing() {
        HandoffRing ring = new HandoffRing(HANDOFF_CAPACITY);
        HandoffRing[] more = java.util.Arrays.copyOf(rings, rings.length + 1);
        more[more.length - 1] = ring;
        rings = more; // published whole: the data path may be draining the others already
        return ring;
    }

    /** From another loop, after it queued frames in its ring: makes this loop take them. */
    void handedOff() {
        if (!handoffScheduled.getAndSet(true)) {
            if (handoffSignal != null) {
                handoffSignal.raise();
            } else {
                loop.execute(handoffTask);
            }
        }
    }

    /** Under epoll: hand-offs wake this loop through {@code signal} (which must run {@link #drainHandoff}). */
    void signalHandoffsWith(HandoffSignal signal) {
        this.handoffSignal = signal;
    }

    void drainHandoff() {
        handoffScheduled.set(false); // before draining: a frame queued from now on signals again
        for (HandoffRing ring : rings) {
            ring.drain(takeHandedOff);
        }
        handedOffSinceDrain = 0;
        drainTouched();
    }

    private final HandoffRing.FrameSink takeHandedOff = this::takeHandedOff;
    private int handedOffSinceDrain;

    /** A frame another loop validated and restamped: copied into a pooled buffer made on this loop. */
    private void takeHandedOff(byte[] slots, int offset, int length) {
        ByteBuf frame = allocator.directBuffer(length, length);
        try {
            frame.writeBytes(slots, offset, length);
            if (forward(frame, frame.getLong(WireFormat.VARIABLE_ID_OFFSET), frame.getLong(WireFormat.SOURCE_TIME_OFFSET),
                    frame.getLong(WireFormat.DEADLINE_OFFSET)) < 0) {
                handoffCounters.dropped(org.gridstat.core.wire.RejectReason.UNKNOWN_VARIABLE);
            }
        } finally {
            frame.release();
        }
        if (++handedOffSinceDrain == DRAIN_BATCH) {
            handedOffSinceDrain = 0;
            drainTouched();
        }
    }

    /** Applies control-plane changes on the data-path loop. */
    void submit(List<FlowCommand> commands) {
        submit(commands, null);
    }

    /** Applies changes on the data-path loop, telling {@code listener} what became of each. */
    void submit(List<FlowCommand> commands, ForwardingEngine.CommandListener listener) {
        loop.execute(() -> {
            commands.forEach(engine::submit);
            engine.applyCommands(clock.nanos(), listener);
            drainAll();
        });
    }

    /** Periodic work: estimator ticks. */
    void tick() {
        engine.tick(clock.nanos());
    }

    /** Frames other loops have handed to this one so far. */
    long handedOffFrames() {
        long n = 0;
        for (HandoffRing ring : rings) {
            n += ring.taken();
        }
        return n;
    }

    void discard() {
        for (EgressLink l : links) {
            l.discard();
        }
    }
}
