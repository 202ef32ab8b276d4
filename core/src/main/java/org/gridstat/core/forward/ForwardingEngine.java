package org.gridstat.core.forward;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.gridstat.core.congestion.CongestionPolicy;
import org.gridstat.core.congestion.Decision;
import org.gridstat.core.filter.RateFilter;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.core.sched.LinkScheduler;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.core.sched.LinkStatistics;
import org.gridstat.core.stats.CounterArray;
import org.gridstat.core.stats.CounterSnapshot;
import org.gridstat.core.time.Saturating;

/**
 * A router's forwarding decisions: for each event, the flows of its variable (one per out-link),
 * each flow's rate filter, its hop deadline, and its link scheduler; for each out-link, what to
 * send next and when. One data-path thread owns an engine; the control plane changes it only by
 * {@link #submit}ting {@link FlowCommand}s into one bounded queue, which that thread drains in
 * {@link #applyCommands} a limited number at a time, so forwarding takes no locks, allocates
 * nothing per event, and a large resync cannot stall it.
 *
 * <p>Two clocks: header times (source timestamps, end-to-end deadlines) are on the epoch scale and
 * are compared only with the router's epoch reading; everything queued is converted at arrival to
 * the monotonic scale, on which the link schedulers pace, order and expire. A wall-clock step
 * therefore moves no queued event's deadline and no link's tokens.
 *
 * @param <E> the event type: a pooled buffer in a router, a packet record in the simulator
 */
public final class ForwardingEngine<E> {
    /** {@link #forward} for a variable without flows here. */
    public static final int UNKNOWN_VARIABLE = -1;
    /** {@link #forward} for a source time further ahead than the router trusts. */
    public static final int SOURCE_TIME_AHEAD = -2;
    /** {@link #forward} for a source time older than any deadline it could meet. */
    public static final int SOURCE_TIME_STALE = -3;

    /** Commands that may wait for the data path; a submitter beyond it waits (back-pressure). */
    public static final int DEFAULT_COMMAND_QUEUE = 4096;
    /** Removed flows whose versions are remembered, most recent first; older ones are forgotten. */
    static final int REMEMBERED_REMOVALS = 65_536;

    /** One flow as the data path sees it. */
    private static final class Binding {
        final FlowEntry entry;
        final int slot;
        final RateFilter filter;
        /** Congestion control's hold: the samples of this rate's grid only; {@code null}: none. */
        RateFilter hold;
        int holdHz;

        Binding(FlowEntry entry, int slot, RateFilter filter) {
            this.entry = entry;
            this.slot = slot;
            this.filter = filter;
        }
    }

    private record Pending(FlowCommand command, CommandListener listener) {
    }

    private static final Binding[] NONE = new Binding[0];

    private final LinkScheduler<E>[] links;
    private final EventReferences<E> references;
    private final SourceTimeTrust trust;
    private final LongObjectMap<Binding[]> byVariable = new LongObjectMap<>(64);
    private final LongObjectMap<Binding> byFlow = new LongObjectMap<>(64);
    /** Versions of removed flows, so a late install of an older version stays out; bounded. */
    private final RemovedVersions removedVersions = new RemovedVersions(REMEMBERED_REMOVALS);
    private final BlockingQueue<Pending> commands;
    private final Map<Long, FlowEntry> installed = new ConcurrentHashMap<>();
    private final CounterArray counters = new CounterArray(EngineCounter.values().length);
    /** Links that got events since the last {@link #drainTouched}, each listed once. */
    private final boolean[] touched;
    private final int[] touchedList;
    private int touchedCount;
    private volatile String lastRejection = "";
    /** Per link, its congestion policy; null: reservations only, as installed. */
    private CongestionPolicy[] policies;
    /** Per link, where its policy's decisions go: counted, then told to the listener. */
    private Consumer<Decision>[] decisionSinks;
    /** Told of the variable of each flow an applied command installed, changed or removed; may be null. */
    private java.util.function.LongConsumer flowChanges;
    /** Links whose flows changed since their policy last ran. */
    private final boolean[] changed;

    public ForwardingEngine(List<LinkSpec> outLinks, int maxFlowsPerLink, EventReferences<E> references,
                            EstimatorSettings estimator, long monoNow) {
        this(outLinks, maxFlowsPerLink, references, estimator, SourceTimeTrust.DEFAULT, DEFAULT_COMMAND_QUEUE, monoNow);
    }

    @SuppressWarnings("unchecked")
    public ForwardingEngine(List<LinkSpec> outLinks, int maxFlowsPerLink, EventReferences<E> references,
                            EstimatorSettings estimator, SourceTimeTrust trust, int commandQueue, long monoNow) {
        this.references = Objects.requireNonNull(references, "references");
        this.trust = Objects.requireNonNull(trust, "trust");
        if (commandQueue < 1) {
            throw new IllegalArgumentException("the command queue needs room for at least one command");
        }
        this.commands = new ArrayBlockingQueue<>(commandQueue);
        this.links = new LinkScheduler[outLinks.size()];
        this.touched = new boolean[links.length];
        this.touchedList = new int[links.length];
        this.changed = new boolean[links.length];
        for (int i = 0; i < links.length; i++) {
            links[i] = new LinkScheduler<>(outLinks.get(i), maxFlowsPerLink, references, estimator, monoNow);
        }
    }

    /** Told, on the data-path thread, of each decision a link's congestion policy made. */
    @FunctionalInterface
    public interface DecisionListener {
        void decided(int link, Decision decision);
    }

    /**
     * Runs a congestion policy on every out-link, one instance each from {@code policyPerLink}, after
     * each estimator period and after the link's flows changed. Call once, on the data-path thread,
     * before forwarding; without it the engine serves the reservations as installed.
     */
    @SuppressWarnings("unchecked")
    public void useCongestionControl(Supplier<? extends CongestionPolicy> policyPerLink, DecisionListener listener) {
        if (policies != null) {
            throw new IllegalStateException("congestion control is already in use");
        }
        Objects.requireNonNull(listener, "listener");
        CongestionPolicy[] p = new CongestionPolicy[links.length];
        Consumer<Decision>[] sinks = new Consumer[links.length];
        for (int i = 0; i < p.length; i++) {
            p[i] = Objects.requireNonNull(policyPerLink.get(), "policy");
            int link = i;
            sinks[i] = d -> {
                counters.increment((d.kind() == Decision.Kind.UNMET ? EngineCounter.NEEDS_UNMET
                        : d.kind() == Decision.Kind.MET ? EngineCounter.NEEDS_MET : EngineCounter.RATES_REASSIGNED).ordinal());
                listener.decided(link, d);
            };
        }
        this.decisionSinks = sinks;
        this.policies = p;
    }

    /**
     * Tells {@code listener}, on the data-path thread, the variable of each flow a command installs,
     * changes or removes, as it is applied (a flow moved to another variable: both). One listener.
     */
    public void onFlowChange(java.util.function.LongConsumer listener) {
        if (flowChanges != null) {
            throw new IllegalStateException("a flow-change listener is set already");
        }
        this.flowChanges = Objects.requireNonNull(listener, "listener");
    }

    private void flowChanged(long variableId) {
        if (flowChanges != null) {
            flowChanges.accept(variableId);
        }
    }

    // --- control plane, any thread ---------------------------------------------------------

    /**
     * Queues a change without waiting; it takes effect at the data-path thread's next
     * {@link #applyCommands}.
     *
     * @return {@code false} if the queue is full (nothing was queued)
     */
    public boolean submit(FlowCommand command) {
        return submit(command, null);
    }

    /** As {@link #submit(FlowCommand)}, telling {@code listener} (on the data-path thread) what became of it. */
    public boolean submit(FlowCommand command, CommandListener listener) {
        return commands.offer(new Pending(Objects.requireNonNull(command, "command"), listener));
    }

    /**
     * Queues a change, waiting up to {@code timeoutNanos} for room: how a control plane slows down
     * to the data path's pace. Never call it on the data-path thread.
     *
     * @return {@code false} if no room was made in time (nothing was queued)
     */
    public boolean submit(FlowCommand command, CommandListener listener, long timeoutNanos) throws InterruptedException {
        return commands.offer(new Pending(Objects.requireNonNull(command, "command"), listener), timeoutNanos,
                TimeUnit.NANOSECONDS);
    }

    /** Whether commands wait for the data path. */
    public boolean hasCommands() {
        return !commands.isEmpty();
    }

    /** The flows in force, as last applied; readable from any thread. */
    public List<FlowEntry> flows() {
        return new ArrayList<>(installed.values());
    }

    /** Why the last command was rejected, or empty. */
    public String lastRejection() {
        return lastRejection;
    }

    public ForwardingCounters counters() {
        return new ForwardingCounters(CounterSnapshot.read(EngineCounter.class, counters));
    }

    /** The installed flow of this id as last applied, or {@code null}; from any thread. */
    public FlowEntry installedFlow(long flowId) {
        return installed.get(flowId);
    }

    /** Visits each flow of {@code link} with its assured rate in force; from any thread (a recent view). */
    public void visitRates(int link, org.gridstat.core.sched.FlowRateVisitor visitor) {
        links[link].visitRates(visitor);
    }

    /**
     * Gives a flow one period's demand measured outside, bytes per second on the wire: a link that
     * takes its demand from the kernel's counters. Unknown flows are ignored. On the data-path thread.
     */
    public void measuredDemand(long flowId, double wireBytesPerSecond) {
        Binding b = byFlow.get(flowId);
        if (b != null) {
            links[b.entry.outLink()].measuredDemand(b.slot, wireBytesPerSecond);
        }
    }

    /** An out-link's statistics; readable from any thread. */
    public LinkStatistics statistics(int link) {
        return links[link].statistics();
    }

    /**
     * An out-link's statistics, ending its queues' latency period with {@code endPeriod} (see
     * {@link LinkScheduler#statistics(boolean)}); readable from any thread.
     */
    public LinkStatistics statistics(int link, boolean endPeriod) {
        return links[link].statistics(endPeriod);
    }

    /**
     * One counter of flow {@code flowId}, 0 if the router holds no such flow: cheaper than a
     * {@link #statistics} snapshot, which copies every queue's latencies. On the data-path thread.
     */
    public long flowCounter(long flowId, org.gridstat.core.sched.QueueCounter counter) {
        Binding b = byFlow.get(flowId);
        return b == null ? 0 : links[b.entry.outLink()].flowCounter(b.slot, counter);
    }

    public int linkCount() {
        return links.length;
    }

    // --- data path, the owning thread ------------------------------------------------------

    /** What became of a command. */
    public enum Outcome { APPLIED, STALE, REJECTED }

    /** Told of each command's outcome as it is applied, on the data-path thread. */
    @FunctionalInterface
    public interface CommandListener {
        void applied(FlowCommand command, Outcome outcome, String reason);
    }

    /** Applies every queued command in order; returns how many were taken from the queue. */
    public int applyCommands(long monoNow) {
        return applyCommands(monoNow, Integer.MAX_VALUE);
    }

    /** Applies at most {@code limit} queued commands in order; returns how many were taken. */
    public int applyCommands(long monoNow, int limit) {
        int n = 0;
        Pending p;
        while (n < limit && (p = commands.poll()) != null) {
            n++;
            FlowCommand c = p.command();
            Outcome o = c instanceof FlowCommand.Install ? install(((FlowCommand.Install) c).entry, monoNow)
                    : remove(c.flowId(), c.version());
            counters.increment((o == Outcome.APPLIED ? EngineCounter.COMMANDS_APPLIED
                    : o == Outcome.STALE ? EngineCounter.COMMANDS_STALE : EngineCounter.COMMANDS_REJECTED).ordinal());
            if (p.listener() != null) {
                p.listener().applied(c, o, o == Outcome.REJECTED ? lastRejection : "");
            }
        }
        if (n > 0 && policies != null) {
            for (int link = 0; link < links.length; link++) {
                if (changed[link]) {
                    reassign(link, monoNow); // a new reservation is not left without the local layer until the next period
                }
            }
        }
        return n;
    }

    /**
     * Queues one event on every flow of its variable whose rate filter lets it through. Each queued
     * copy holds a reference taken with {@link EventReferences#retain}; the caller keeps its own.
     *
     * <p>The source time is checked against the router's epoch clock first ({@link SourceTimeTrust}):
     * an untrusted one is counted and refused before any filter sees it. Each copy's hop deadline
     * (the end-to-end deadline less the flow's downstream budget: the EDF key) and its expiry (the
     * end-to-end deadline less the least time the rest of the path takes: when it can no longer
     * arrive in time) are converted to the monotonic scale with saturating arithmetic.
     *
     * @param e2eDeadline the event's end-to-end deadline on the epoch scale, 0 for none
     * @param epochNow    the router's epoch clock, read once per duty cycle
     * @param monoNow     its monotonic clock, read at the same moment
     * @return copies queued, or {@link #UNKNOWN_VARIABLE}, {@link #SOURCE_TIME_AHEAD}, {@link #SOURCE_TIME_STALE}
     */
    public int forward(long variableId, long sourceTimeNanos, long e2eDeadline, E event, int bytes, long epochNow,
                       long monoNow) {
        Binding[] flows = byVariable.get(variableId);
        if (flows == null) {
            counters.increment(EngineCounter.UNKNOWN_VARIABLE.ordinal());
            return UNKNOWN_VARIABLE;
        }
        long age = Saturating.subtract(epochNow, sourceTimeNanos);
        if (age < -trust.maxAheadNanos()) {
            counters.increment(EngineCounter.SOURCE_TIME_AHEAD.ordinal());
            return SOURCE_TIME_AHEAD;
        }
        if (age > trust.maxAgeNanos()) {
            counters.increment(EngineCounter.SOURCE_TIME_STALE.ordinal());
            return SOURCE_TIME_STALE;
        }
        int queued = 0;
        for (Binding b : flows) {
            if (b.hold != null && !b.hold.accept(sourceTimeNanos)) { // first: the filter then picks among what is held
                counters.increment(EngineCounter.HELD.ordinal());
                continue;
            }
            if (b.filter != null && !b.filter.accept(sourceTimeNanos)) {
                counters.increment(EngineCounter.FILTERED.ordinal());
                continue;
            }
            long hopDeadline = toMono(e2eDeadline, b.entry.downstreamBudgetNanos(), epochNow, monoNow);
            long expiry = toMono(e2eDeadline, b.entry.minRestDelayNanos(), epochNow, monoNow);
            references.retain(event);
            int link = b.entry.outLink();
            if (links[link].enqueue(b.slot, event, bytes, hopDeadline, expiry, monoNow, sourceTimeNanos)) {
                queued++;
                if (!touched[link]) {
                    touched[link] = true;
                    touchedList[touchedCount++] = link;
                }
            } else {
                counters.increment(EngineCounter.REFUSED.ordinal());
                references.release(event);
            }
        }
        counters.add(EngineCounter.QUEUED.ordinal(), queued);
        return queued;
    }

    /** {@code e2eDeadline - before}, on the monotonic scale; {@link Long#MAX_VALUE} for no deadline. */
    private static long toMono(long e2eDeadline, long before, long epochNow, long monoNow) {
        if (e2eDeadline == 0) {
            return Long.MAX_VALUE;
        }
        long left = Saturating.subtract(Saturating.subtract(e2eDeadline, before), epochNow);
        return Saturating.add(monoNow, left);
    }

    /** Hands each link that got events since the last call to {@code drain}, once, and forgets them. */
    public void drainTouched(java.util.function.IntConsumer drain) {
        int n = touchedCount;
        touchedCount = 0;
        for (int i = 0; i < n; i++) {
            int link = touchedList[i];
            touched[link] = false;
            drain.accept(link);
        }
    }

    /** The next event to send on {@code link} now, or {@code null}. The caller sends it, then releases it. */
    public E dequeue(int link, long monoNow) {
        return links[link].dequeue(monoNow);
    }

    /** The flow class of the event {@link #dequeue} on {@code link} returned last. */
    public ServiceClass dequeuedClass(int link) {
        return links[link].dequeuedClass();
    }

    /** Charges bytes the line adds beyond a datagram (fragments' or cells' headers) to {@code link}'s shaper. */
    public void chargeFraming(int link, int bytes, long monoNow) {
        links[link].chargeFraming(bytes, monoNow);
    }

    /**
     * A datagram of the {@code events} oldest events dequeued on {@code link} and not yet sent
     * closes with {@code framingBytes} of headers; see {@link LinkScheduler#chargeDatagram}.
     */
    public void chargeDatagram(int link, int framingBytes, int events, long monoNow) {
        links[link].chargeDatagram(framingBytes, events, monoNow);
    }

    /** When {@link #dequeue} on {@code link} may next return an event ({@link Long#MAX_VALUE}: nothing waits). */
    public long nextWakeNanos(int link, long monoNow) {
        return links[link].nextWakeNanos(monoNow);
    }

    /** Queues a control event on a link, ahead of all data. */
    public boolean enqueueControl(int link, E event, int bytes, long monoNow) {
        return links[link].enqueueControl(event, bytes, monoNow);
    }

    /**
     * Runs the rate estimators of every link if their period has passed, and the congestion policy
     * of every link whose period ended since the last call, here or as an event passed through.
     */
    public void tick(long monoNow) {
        for (int link = 0; link < links.length; link++) {
            links[link].maybeTick(monoNow);
            if (links[link].takePeriodEnded() && policies != null) {
                reassign(link, monoNow);
            }
        }
    }

    private void reassign(int link, long monoNow) {
        changed[link] = false;
        policies[link].reassign(links[link], monoNow, decisionSinks[link]);
    }

    /**
     * Holds a flow to {@code rateHz} samples per second, the samples of that rate's grid as a rate
     * filter picks them ({@link RateFilter}), before its own filter; 0 lifts the hold. A hold is
     * congestion control's: it outlives a new version of the flow, not its removal. On the
     * data-path thread.
     *
     * @return whether the flow is installed here
     */
    public boolean hold(long flowId, int rateHz) {
        if (rateHz < 0) {
            throw new IllegalArgumentException("a hold's rate must not be negative, got " + rateHz);
        }
        Binding b = byFlow.get(flowId);
        if (b == null) {
            return false;
        }
        setHold(b, rateHz);
        links[b.entry.outLink()].held(b.slot, rateHz);
        return true;
    }

    private static void setHold(Binding b, int rateHz) {
        if (rateHz == b.holdHz) {
            return;
        }
        b.holdHz = rateHz;
        b.hold = rateHz == 0 ? null
                : RateFilter.ofRate(rateHz, b.entry.publisherIntervalNanos());
    }

    /** The rate a flow is held to (0: none), or -1 if it is not installed; on the data-path thread. */
    public int heldRate(long flowId) {
        Binding b = byFlow.get(flowId);
        return b == null ? -1 : b.holdHz;
    }

    /** The flows of a variable (none: no flow here); on the data-path thread. */
    public FlowEntry[] flowsOf(long variableId) {
        Binding[] flows = byVariable.get(variableId);
        if (flows == null) {
            return new FlowEntry[0];
        }
        FlowEntry[] out = new FlowEntry[flows.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = flows[i].entry;
        }
        return out;
    }

    /** How many flows are installed. */
    public int flowCount() {
        return installed.size();
    }

    /** The installed flow of this id, or {@code null}; on the data-path thread. */
    public FlowEntry flow(long flowId) {
        Binding b = byFlow.get(flowId);
        return b == null ? null : b.entry;
    }

    /** A flow's mean event size on the wire so far, bytes (0: nothing queued yet), or -1 if it is not installed. */
    public double meanWireBytes(long flowId) {
        Binding b = byFlow.get(flowId);
        return b == null ? -1 : links[b.entry.outLink()].meanWireBytes(b.slot);
    }

    /** Removes every flow, releasing every queued event; for shutdown, on the owning thread. */
    public void close() {
        List<Binding> all = new ArrayList<>();
        byFlow.forEachValue(all::add);
        for (Binding b : all) {
            dropBinding(b);
        }
    }

    private Outcome install(FlowEntry e, long now) {
        Binding old = byFlow.get(e.flowId());
        long known = old != null ? old.entry.version() : removedVersions.versionOf(e.flowId());
        if (e.version() <= known) {
            return Outcome.STALE;
        }
        if (e.outLink() >= links.length) {
            return reject("flow " + e.flowId() + ": out-link " + e.outLink() + " does not exist (" + links.length + " links)");
        }
        Binding twin = onLink(e.variableId(), e.outLink());
        if (twin != null && twin.entry.flowId() != e.flowId()) {
            // Multicast sends one copy per link: a second flow would send every sample twice.
            return reject("flow " + e.flowId() + ": variable " + Long.toUnsignedString(e.variableId())
                    + " already has flow " + twin.entry.flowId() + " on out-link " + e.outLink());
        }
        changed[e.outLink()] = true;
        if (old != null) {
            changed[old.entry.outLink()] = true;
        }
        if (old != null && old.entry.outLink() == e.outLink() && old.entry.variableId() == e.variableId()) {
            links[e.outLink()].modifyFlow(old.slot, e.spec(), now);
            RateFilter filter = old.entry.sameFilter(e) ? old.filter : filterOf(e);
            Binding fresh = new Binding(e, old.slot, filter);
            if (old.hold != null) { // a hold is congestion control's, kept over the broker's changes like the assured layer
                setHold(fresh, old.holdHz);
            }
            replaceBinding(old, fresh);
        } else {
            int slot;
            try {
                slot = links[e.outLink()].addFlow(e.spec(), now);
            } catch (IllegalStateException full) {
                return reject("flow " + e.flowId() + ": " + full.getMessage());
            }
            if (old != null) {
                dropBinding(old);
            }
            Binding b = new Binding(e, slot, filterOf(e));
            byFlow.put(e.flowId(), b);
            Binding[] current = byVariable.get(e.variableId());
            Binding[] grown = current == null ? new Binding[1] : Arrays.copyOf(current, current.length + 1);
            grown[grown.length - 1] = b;
            byVariable.put(e.variableId(), grown);
        }
        removedVersions.forget(e.flowId());
        installed.put(e.flowId(), e);
        if (old != null && old.entry.variableId() != e.variableId()) {
            flowChanged(old.entry.variableId());
        }
        flowChanged(e.variableId());
        return Outcome.APPLIED;
    }

    private Binding onLink(long variableId, int link) {
        Binding[] flows = byVariable.get(variableId);
        if (flows != null) {
            for (Binding b : flows) {
                if (b.entry.outLink() == link) {
                    return b;
                }
            }
        }
        return null;
    }

    /**
     * Removes a flow at {@code version} or older. A flow not installed has its removal remembered
     * all the same, unless a newer one is: a remove that overtook its install (reordered commands,
     * a broker failover) keeps that install, when it comes, out as stale.
     */
    private Outcome remove(long flowId, long version) {
        Binding old = byFlow.get(flowId);
        if (old == null) {
            if (version <= removedVersions.versionOf(flowId)) {
                return Outcome.STALE;
            }
            removedVersions.remember(flowId, version);
            return Outcome.APPLIED;
        }
        if (version < old.entry.version()) {
            return Outcome.STALE;
        }
        dropBinding(old);
        removedVersions.remember(flowId, version);
        flowChanged(old.entry.variableId());
        return Outcome.APPLIED;
    }

    private void dropBinding(Binding b) {
        links[b.entry.outLink()].removeFlow(b.slot);
        changed[b.entry.outLink()] = true;
        byFlow.remove(b.entry.flowId());
        installed.remove(b.entry.flowId());
        Binding[] current = byVariable.get(b.entry.variableId());
        Binding[] kept = Arrays.stream(current == null ? NONE : current).filter(x -> x != b).toArray(Binding[]::new);
        if (kept.length == 0) {
            byVariable.remove(b.entry.variableId());
        } else {
            byVariable.put(b.entry.variableId(), kept);
        }
    }

    private void replaceBinding(Binding old, Binding fresh) {
        byFlow.put(fresh.entry.flowId(), fresh);
        Binding[] current = byVariable.get(old.entry.variableId());
        Binding[] updated = current.clone();
        for (int i = 0; i < updated.length; i++) {
            if (updated[i] == old) {
                updated[i] = fresh;
            }
        }
        byVariable.put(old.entry.variableId(), updated);
    }

    private Outcome reject(String why) {
        lastRejection = why;
        return Outcome.REJECTED;
    }

    private static RateFilter filterOf(FlowEntry e) {
        long[] intervals = e.intervalsNanos();
        return intervals.length == 0 ? null : new RateFilter(intervals, e.publisherIntervalNanos());
    }
}
