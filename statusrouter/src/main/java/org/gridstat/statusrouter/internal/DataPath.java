package org.gridstat.statusrouter.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.EventLoop;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.gridstat.core.congestion.CongestionPolicy;
import org.gridstat.core.congestion.NoticeRelay;
import org.gridstat.core.egress.DataPathAgent;
import org.gridstat.core.egress.EgressPump;
import org.gridstat.core.emulation.LinkEmulator;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.time.Clock;
import org.gridstat.core.time.NanoClock;
import org.gridstat.core.wire.WireFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The router's {@link DataPathAgent} on one event loop (the data-path thread), with the Netty
 * pieces it needs: a {@link LinkTransmitter} per out-link and {@link LoopWakeups}. Ingress on that
 * loop opens a duty cycle per read batch, forwards each frame, and closes it; ingress on other
 * loops hands validated frames over through a bounded ring each, counted when full; the control
 * plane's commands wait in the engine's bounded queue and wake the loop.
 */
final class DataPath {
    private static final Logger LOG = LoggerFactory.getLogger(DataPath.class);
    /** Frames each other ingress loop may have waiting for the data path (1,472 bytes a slot). */
    static final int HANDOFF_CAPACITY = 1024;
    /** How long a control-plane submitter waits for room in the command queue before giving up. */
    static final long SUBMIT_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

    final ForwardingEngine<ByteBuf> engine;
    final LinkTransmitter[] links;
    final DataPathAgent<ByteBuf> agent;
    /** Congestion control's recent decisions, or {@code null} when it is off. */
    final DecisionLog decisions;
    /** How many reassignments moved each flow's rate, or {@code null} when congestion control is off. */
    final FlowReassignments reassignments;
    /** Back-pressure: holds and congestion notices, or {@code null} without them. On this loop only. */
    private final NoticeRelay relay;
    /** Where the relay's advice goes (the notice plane, once it runs); until then it is kept in the relay. */
    private volatile NoticeRelay.Advice adviceOut = (hop, variable, rate) -> { };
    /** Told when congestion control finds a need it cannot meet: the control channel reports at once. */
    private volatile Runnable unmetAlarm = () -> { };
    private final EventLoop loop;
    private final LoopWakeups wakeups;
    /** Where frames handed over by other loops are copied to, on this loop (see {@link FrameIntake}). */
    private final ByteBufAllocator allocator = PooledByteBufAllocator.DEFAULT;
    /** One per other ingress loop; replaced, not changed, when one is added (before that loop reads). */
    private volatile HandoffRing[] rings = new HandoffRing[0];
    private final AtomicBoolean handoffScheduled = new AtomicBoolean();
    private final Runnable handoffTask = this::drainHandoff;
    private Runnable priorityRead;
    private final AtomicBoolean commandsSignalled = new AtomicBoolean();
    private final Runnable commandTask = this::onCommands;
    /** Wakes this loop for handed-over frames without allocating; without one, a task is queued. */
    private HandoffSignal handoffSignal;
    private final DataPathCounters handoffCounters;
    /** Events' buffers, made on this loop (the constructor runs there). */
    private final EventBuffers eventBuffers = new EventBuffers();

    DataPath(RouterSettings settings, EventLoop loop, NanoClock monoClock, Clock epochClock,
             DataPathCounters handoffCounters) {
        this(settings, loop, monoClock, epochClock, handoffCounters, null);
    }

    /** @param kernel the links the kernel shapes, or {@code null}: the router shapes them all */
    DataPath(RouterSettings settings, EventLoop loop, NanoClock monoClock, Clock epochClock,
             DataPathCounters handoffCounters, KernelLinks kernel) {
        this.loop = loop;
        this.handoffCounters = handoffCounters;
        long now = monoClock.nanoTime();
        List<org.gridstat.core.sched.LinkSpec> specs = new ArrayList<>();
        for (int i = 0; i < settings.links.size(); i++) {
            org.gridstat.core.sched.LinkSpec own = settings.links.get(i).spec;
            specs.add(kernel == null ? own : kernel.specOf(i, own));
        }
        this.engine = new ForwardingEngine<>(specs, settings.maxFlowsPerLink,
                ByteBufReferences.INSTANCE, settings.estimator, settings.sourceTimeTrust,
                ForwardingEngine.DEFAULT_COMMAND_QUEUE, now);
        CongestionPolicy[] policies = settings.congestionControl ? policiesOf(settings) : null;
        if (policies != null) { // before the first flow, so every one is under the links' policies
            this.decisions = new DecisionLog(settings.links.stream().map(l -> l.name).toList(), epochClock,
                    DecisionLog.warnings(settings.nodeId));
            this.reassignments = new FlowReassignments(id -> engine.flow(id) != null);
            // Holds apply with local control too (a victim sends what its lent rate carries); the
            // advice goes out only with notices on.
            this.relay = new NoticeRelay(engine, (hop, variable, rate) -> adviceOut.advise(hop, variable, rate));
            java.util.Iterator<CongestionPolicy> each = java.util.Arrays.asList(policies).iterator();
            engine.useCongestionControl(each::next, (link, d) -> {
                decisions.decided(link, d);
                reassignments.decided(d);
                relay.decided(link, d);
                if (d.kind() == org.gridstat.core.congestion.Decision.Kind.UNMET) {
                    unmetAlarm.run();
                }
            });
        } else {
            this.decisions = null;
            this.reassignments = null;
            this.relay = null;
        }
        this.links = new LinkTransmitter[settings.links.size()];
        List<EgressPump<ByteBuf>> pumps = new ArrayList<>();
        for (int i = 0; i < links.length; i++) {
            OutLinkConfig c = settings.links.get(i);
            // The kernel steers each packet to its flow's class by the event it carries: one event a datagram.
            links[i] = new LinkTransmitter(c, i, this, kernel != null && kernel.shaped(i), settings.udpOffload);
            pumps.add(new EgressPump<>(engine, i, links[i], ByteBufReferences.INSTANCE, ByteBuf::readableBytes,
                    emulatorOf(c, now), c.mtu));
        }
        this.wakeups = new LoopWakeups(loop, monoClock, this::cycle);
        this.agent = new DataPathAgent<>(engine, pumps, wakeups, monoClock, epochClock,
                DataPathAgent.DEFAULT_COMMANDS_PER_CYCLE, settings.estimator.periodNanos());
        // Configured flows are installed before anything is read, a queue's worth at a time, so a
        // file with more flows than the command queue holds still starts.
        for (FlowEntry f : settings.flows) {
            if (!engine.submit(FlowCommand.install(f))) {
                engine.applyCommands(now);
                engine.submit(FlowCommand.install(f));
            }
        }
        engine.applyCommands(now);
        primeAllocators();
    }

    /**
     * Takes and gives back a frame-sized buffer from each allocator the data path uses, on its own
     * thread, before any frame arrives. The first allocation makes the pool's first chunk and
     * (Netty 4.2) initialises Java Flight Recorder's metadata for the allocator's events: about
     * 150 ms, measured with {@code -Xlog:class+load} on a router started into a flood, that would
     * otherwise stall the first frames and make HRT events miss their deadlines.
     */
    private void primeAllocators() {
        for (ByteBufAllocator a : new ByteBufAllocator[] {allocator, ByteBufAllocator.DEFAULT}) {
            a.directBuffer(WireFormat.MAX_FRAME_LENGTH).release();
        }
    }

    private static LinkEmulator emulatorOf(OutLinkConfig c, long now) {
        EmulationConfig e = c.emulation;
        return e.active() ? new LinkEmulator(c.spec.capacity(), e.queueBytes, e.delayNanos, e.loss,
                e.meanTimeBetweenFaultsNanos, e.faultDurationNanos, e.seed, now) : null;
    }

    /** The data-path thread's event buffers; use them on that thread only. */
    EventBuffers eventBuffers() {
        return eventBuffers;
    }

    /** Runs the first duty cycle, once the out-links are attached: it arms the estimator's wake-up. */
    void start() {
        cycle();
    }

    /** One whole duty cycle: for wake-ups, commands and writability, with no frames. */
    private void cycle() {
        agent.beginCycle();
        agent.doWork();
    }

    /** Opens a duty cycle for a batch of frames read on this loop. */
    void beginCycle() {
        agent.beginCycle();
    }

    /**
     * Forwards one validated, restamped frame held by {@code frame} in the open cycle; the caller
     * keeps its own reference. Returns the copies queued, or a negative
     * {@link ForwardingEngine} code for a frame refused.
     */
    int forward(ByteBuf frame, long variableId, long sourceTime, long deadline) {
        return agent.forward(variableId, sourceTime, deadline, frame, frame.readableBytes());
    }

    /** Closes the open duty cycle: commands, estimators, pumping, the next wake-up. */
    void endCycle() {
        agent.doWork();
    }

    void linkWritable(int link) {
        agent.linkWritable(link);
        cycle();
    }

    void sendFailed(int link) {
        agent.pump(link).sendFailed();
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

    /** Reads the priority port before the hand-off rings are drained; on this loop. */
    void readFirst(Runnable priorityRead) {
        this.priorityRead = priorityRead;
    }

    void drainHandoff() {
        handoffScheduled.set(false); // before draining: a frame queued from now on signals again
        if (priorityRead != null) {
            priorityRead.run();
        }
        agent.beginCycle();
        for (HandoffRing ring : rings) {
            ring.drain(takeHandedOff);
        }
        agent.doWork();
    }

    private final HandoffRing.FrameSink takeHandedOff = this::takeHandedOff;

    /** A frame another loop validated and restamped: copied into a pooled buffer made on this loop. */
    private void takeHandedOff(byte[] slots, int offset, int length) {
        ByteBuf frame = eventBuffers.take(length);
        try {
            frame.writeBytes(slots, offset, length);
            int queued = forward(frame, frame.getLong(WireFormat.VARIABLE_ID_OFFSET),
                    frame.getLong(WireFormat.SOURCE_TIME_OFFSET), frame.getLong(WireFormat.DEADLINE_OFFSET));
            if (queued < 0) {
                handoffCounters.refused(queued);
            }
        } finally {
            frame.release();
        }
    }

    /**
     * Queues control-plane changes for the data path and wakes it; they apply there in order, a
     * bounded number per duty cycle. Waits while the queue is full (back-pressure on the control
     * channel); never call it on the data-path loop.
     *
     * @param listener told on the data-path loop what became of each command, or {@code null}
     * @throws IllegalStateException if the data path took nothing for {@link #SUBMIT_TIMEOUT_NANOS}
     */
    void submit(List<FlowCommand> commands, ForwardingEngine.CommandListener listener) {
        if (loop.inEventLoop()) {
            throw new IllegalStateException("flow commands are submitted from the control plane, not the data path");
        }
        try {
            for (FlowCommand c : commands) {
                if (!engine.submit(c, listener)) { // full: let the data path catch up
                    signalCommands();
                    if (!engine.submit(c, listener, SUBMIT_TIMEOUT_NANOS)) {
                        throw new IllegalStateException("the data path took no flow command for "
                                + TimeUnit.NANOSECONDS.toSeconds(SUBMIT_TIMEOUT_NANOS) + " s");
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while queueing flow commands", e);
        }
        signalCommands();
    }

    private void signalCommands() {
        if (!commandsSignalled.getAndSet(true)) {
            loop.execute(commandTask);
        }
    }

    private void onCommands() {
        commandsSignalled.set(false); // before the cycle: commands queued from now on signal again
        cycle();
    }

    /** Runs {@code alarm} (on the data path: it must hand over at once) when a need is found unmet. */
    void onUnmet(Runnable alarm) {
        unmetAlarm = alarm;
    }

    /**
     * A policy per out-link from the congestion-control provider, or {@code null} after one log
     * line if it throws or gives none: the optional bundle does not keep the router from forwarding
     * under its reservations.
     */
    private static CongestionPolicy[] policiesOf(RouterSettings settings) {
        CongestionPolicy[] p = new CongestionPolicy[settings.links.size()];
        try {
            for (int i = 0; i < p.length; i++) {
                p[i] = settings.congestion.newPolicy();
                if (p[i] == null) {
                    throw new IllegalStateException("no policy for out-link " + settings.links.get(i).name);
                }
            }
            return p;
        } catch (RuntimeException e) {
            LOG.error("router {}: congestion control {} failed ({}): forwarding under the reservations only",
                    settings.nodeId, settings.congestion.getClass().getName(), e.toString());
            return null;
        }
    }

    /** Sends the relay's advice to {@code out} from now on. */
    void adviseTo(NoticeRelay.Advice out) {
        adviceOut = out;
    }

    /** Runs {@code task} on the data-path loop. */
    void execute(Runnable task) {
        loop.execute(task);
    }

    /** The back-pressure relay (on the data-path loop only), or {@code null} without congestion control. */
    NoticeRelay relay() {
        return relay;
    }

    /**
     * How many of congestion control's reassignments moved flow {@code flowId}'s assured rate since
     * this data path started; 0 with congestion control off. From any thread.
     */
    long reassignments(long flowId) {
        return reassignments == null ? 0 : reassignments.of(flowId);
    }

    /** Frames other loops have handed to this one so far. */
    long handedOffFrames() {
        long n = 0;
        for (HandoffRing ring : rings) {
            n += ring.taken();
        }
        return n;
    }

    /** Stops the wake-ups and releases every queued buffer; on the data-path loop. */
    void discard() {
        wakeups.close();
        agent.close();
        for (LinkTransmitter l : links) {
            l.discard();
        }
        eventBuffers.freeAll(); // what the sockets still hold is freed as they release it, off the lists
    }
}
