package org.gridstat.statusrouter.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.time.Clock;
import org.gridstat.core.wire.WireFormat;

/**
 * The router's forwarding engine and its out-links, confined to one event loop (the data-path
 * thread). Ingress on that loop forwards directly; ingress on other loops hands validated frames
 * over through a bounded queue, counted when full.
 */
final class DataPath {
    static final int HANDOFF_CAPACITY = 8192;
    /**
     * Frames queued before the links are drained. Below the default flow buffer (20), so a burst
     * arriving faster than a link drains cannot overflow a flow that the link would serve at once.
     */
    static final int DRAIN_BATCH = 16;

    final ForwardingEngine<ByteBuf> engine;
    final EgressLink[] links;
    private final EventLoop loop;
    private final Clock clock;
    private final ArrayBlockingQueue<ByteBuf> handoff = new ArrayBlockingQueue<>(HANDOFF_CAPACITY);
    private final AtomicBoolean handoffScheduled = new AtomicBoolean();
    private final Runnable handoffTask = this::drainHandoff;
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

    boolean inLoop() {
        return loop.inEventLoop();
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

    /** From another loop: queues a retained frame for the data-path loop, or releases it if the queue is full. */
    boolean handOff(ByteBuf retainedFrame) {
        if (!handoff.offer(retainedFrame)) {
            retainedFrame.release();
            return false;
        }
        if (!handoffScheduled.getAndSet(true)) {
            loop.execute(handoffTask);
        }
        return true;
    }

    private void drainHandoff() {
        handoffScheduled.set(false);
        ByteBuf frame;
        int batch = 0;
        while ((frame = handoff.poll()) != null) {
            if (++batch == DRAIN_BATCH) {
                batch = 0;
                drainTouched();
            }
            try {
                // Validated by the loop that handed it over: read the header fields where they lie.
                int at = frame.readerIndex();
                if (forward(frame, frame.getLong(at + WireFormat.VARIABLE_ID_OFFSET),
                        frame.getLong(at + WireFormat.SOURCE_TIME_OFFSET), frame.getLong(at + WireFormat.DEADLINE_OFFSET)) < 0) {
                    handoffCounters.dropped(org.gridstat.core.wire.RejectReason.UNKNOWN_VARIABLE);
                }
            } finally {
                frame.release();
            }
        }
        drainTouched();
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

    void discard() {
        for (EgressLink l : links) {
            l.discard();
        }
        ByteBuf frame;
        while ((frame = handoff.poll()) != null) {
            frame.release();
        }
    }
}
