package org.gridstat.core.forward;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.gridstat.core.filter.RateFilter;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.core.sched.LinkScheduler;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.core.sched.LinkStatistics;
import org.gridstat.core.stats.CounterArray;

/**
 * A router's forwarding decisions: for each event, the flows of its variable (one per out-link),
 * each flow's rate filter, its hop deadline, and its link scheduler; for each out-link, what to
 * send next and when. One data-path thread owns an engine; the control plane changes it only by
 * {@link #submit}ting {@link FlowCommand}s, which that thread applies in {@link #applyCommands},
 * so forwarding takes no locks and allocates nothing per event.
 *
 * @param <E> the event type: a pooled buffer in a router, a packet record in the simulator
 */
public final class ForwardingEngine<E> {
    private static final int UNKNOWN = 0;
    private static final int FILTERED = 1;
    private static final int QUEUED = 2;
    private static final int REFUSED = 3;
    private static final int APPLIED = 4;
    private static final int STALE = 5;
    private static final int REJECTED = 6;

    /** One flow as the data path sees it. */
    private static final class Binding {
        final FlowEntry entry;
        final int slot;
        final RateFilter filter;

        Binding(FlowEntry entry, int slot, RateFilter filter) {
            this.entry = entry;
            this.slot = slot;
            this.filter = filter;
        }
    }

    private static final Binding[] NONE = new Binding[0];

    private final LinkScheduler<E>[] links;
    private final EventReferences<E> references;
    private final LongObjectMap<Binding[]> byVariable = new LongObjectMap<>(64);
    private final LongObjectMap<Binding> byFlow = new LongObjectMap<>(64);
    /** Versions of removed flows, so a late install of an older version stays out. */
    private final LongObjectMap<Long> removedVersions = new LongObjectMap<>(16);
    private final Queue<FlowCommand> commands = new ConcurrentLinkedQueue<>();
    private final Map<Long, FlowEntry> installed = new ConcurrentHashMap<>();
    private final CounterArray counters = new CounterArray(7);
    /** Links that got events since the last {@link #drainTouched}, each listed once. */
    private final boolean[] touched;
    private final int[] touchedList;
    private int touchedCount;
    private volatile String lastRejection = "";

    @SuppressWarnings("unchecked")
    public ForwardingEngine(List<LinkSpec> outLinks, int maxFlowsPerLink, EventReferences<E> references,
                            EstimatorSettings estimator, long now) {
        this.references = Objects.requireNonNull(references, "references");
        this.links = new LinkScheduler[outLinks.size()];
        this.touched = new boolean[links.length];
        this.touchedList = new int[links.length];
        for (int i = 0; i < links.length; i++) {
            links[i] = new LinkScheduler<>(outLinks.get(i), maxFlowsPerLink, references, estimator, now);
        }
    }

    // --- control plane, any thread ---------------------------------------------------------

    /** Queues a change; it takes effect at the data-path thread's next {@link #applyCommands}. */
    public void submit(FlowCommand command) {
        commands.add(Objects.requireNonNull(command, "command"));
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
        return new ForwardingCounters(counters.get(UNKNOWN), counters.get(FILTERED), counters.get(QUEUED),
                counters.get(REFUSED), counters.get(APPLIED), counters.get(STALE), counters.get(REJECTED));
    }

    /** An out-link's statistics; readable from any thread. */
    public LinkStatistics statistics(int link) {
        return links[link].statistics();
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

    /** Applies the queued commands in order; returns how many were taken from the queue. */
    public int applyCommands(long now) {
        return applyCommands(now, null);
    }

    /** Applies the queued commands in order, telling {@code listener} (if any) what became of each. */
    public int applyCommands(long now, CommandListener listener) {
        int n = 0;
        FlowCommand c;
        while ((c = commands.poll()) != null) {
            n++;
            Outcome o = c instanceof FlowCommand.Install ? install(((FlowCommand.Install) c).entry, now)
                    : remove(c.flowId(), c.version());
            counters.increment(o == Outcome.APPLIED ? APPLIED : o == Outcome.STALE ? STALE : REJECTED);
            if (listener != null) {
                listener.applied(c, o, o == Outcome.REJECTED ? lastRejection : "");
            }
        }
        return n;
    }

    /**
     * Queues one event on every flow of its variable whose rate filter lets it through. Each queued
     * copy holds a reference taken with {@link EventReferences#retain}; the caller keeps its own.
     *
     * @param e2eDeadline the event's end-to-end deadline, 0 for none
     * @return copies queued, or -1 if the variable has no flow here
     */
    public int forward(long variableId, long sourceTimeNanos, long e2eDeadline, E event, int bytes, long now) {
        Binding[] flows = byVariable.get(variableId);
        if (flows == null) {
            counters.increment(UNKNOWN);
            return -1;
        }
        int queued = 0;
        for (Binding b : flows) {
            if (b.filter != null && !b.filter.accept(sourceTimeNanos)) {
                counters.increment(FILTERED);
                continue;
            }
            long hopDeadline = e2eDeadline == 0 ? Long.MAX_VALUE : e2eDeadline - b.entry.downstreamBudgetNanos();
            references.retain(event);
            int link = b.entry.outLink();
            if (links[link].enqueue(b.slot, event, bytes, hopDeadline, now)) {
                queued++;
                if (!touched[link]) {
                    touched[link] = true;
                    touchedList[touchedCount++] = link;
                }
            } else {
                counters.increment(REFUSED);
                references.release(event);
            }
        }
        counters.add(QUEUED, queued);
        return queued;
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
    public E dequeue(int link, long now) {
        return links[link].dequeue(now);
    }

    /** When {@link #dequeue} on {@code link} may next return an event ({@link Long#MAX_VALUE}: nothing waits). */
    public long nextWakeNanos(int link, long now) {
        return links[link].nextWakeNanos(now);
    }

    /** Queues a control event on a link, ahead of all data. */
    public boolean enqueueControl(int link, E event, int bytes, long now) {
        return links[link].enqueueControl(event, bytes, now);
    }

    /** Runs the rate estimators of every link if their period has passed. */
    public void tick(long now) {
        for (LinkScheduler<E> l : links) {
            l.maybeTick(now);
        }
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
        long known = old != null ? old.entry.version() : removedVersionOf(e.flowId());
        if (e.version() <= known) {
            return Outcome.STALE;
        }
        if (e.outLink() >= links.length) {
            return reject("flow " + e.flowId() + ": out-link " + e.outLink() + " does not exist (" + links.length + " links)");
        }
        if (old != null && old.entry.outLink() == e.outLink() && old.entry.variableId() == e.variableId()) {
            links[e.outLink()].modifyFlow(old.slot, e.spec(), now);
            RateFilter filter = old.entry.sameFilter(e) ? old.filter : filterOf(e);
            replaceBinding(old, new Binding(e, old.slot, filter));
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
        removedVersions.remove(e.flowId());
        installed.put(e.flowId(), e);
        return Outcome.APPLIED;
    }

    private Outcome remove(long flowId, long version) {
        Binding old = byFlow.get(flowId);
        if (old == null || version < old.entry.version()) {
            return Outcome.STALE;
        }
        dropBinding(old);
        removedVersions.put(flowId, version);
        return Outcome.APPLIED;
    }

    private long removedVersionOf(long flowId) {
        Long v = removedVersions.get(flowId);
        return v == null ? 0 : v;
    }

    private void dropBinding(Binding b) {
        links[b.entry.outLink()].removeFlow(b.slot);
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
