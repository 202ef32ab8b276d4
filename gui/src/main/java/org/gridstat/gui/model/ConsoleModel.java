package org.gridstat.gui.model;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.gridstat.gui.feed.ConnectionState;
import org.gridstat.gui.feed.FeedSink;
import org.gridstat.gui.feed.Resource;

/**
 * The console's latest picture of the broker, between the feed and the UI. The feed's thread
 * writes the latest state of each element (each flow by its router and id, each other resource
 * whole), replacing what it had, and bumps a version; the UI reads a {@link ConsoleSnapshot} on its
 * own pulse, a few times a second, and repaints only if the version moved. However fast updates
 * come, the UI thread gets no more work than its pulse asks for, and no update is queued to it.
 *
 * <p>Freshness is kept per resource and per flow: each resource with when it was received and,
 * if the feed's last attempt to refresh it failed, why ({@link #unrefreshed}; cleared when it is
 * received again); each flow with its router's report time, kept within what its receipts allow
 * ({@link #asOf}), so a flow whose router stopped reporting ages even while the broker keeps
 * listing it, and a router's clock off the console's does not hold it fresh or stale.
 */
public final class ConsoleModel implements FeedSink {
    private final LongSupplier clockMillis;
    private final Map<FlowKey, Stamped<Flow>> flows = new ConcurrentHashMap<>();
    /** When each flow was last received, on the console's clock: written by the feed's thread only. */
    private final Map<FlowKey, Long> flowReceipts = new ConcurrentHashMap<>();
    private final Map<Resource, Stamped<?>> latest = new ConcurrentHashMap<>();
    private final Map<Resource, String> unrefreshed = new ConcurrentHashMap<>();
    private final AtomicLong version = new AtomicLong();
    private final ChartHistory history = new ChartHistory();
    private volatile ConnectionState connection = ConnectionState.connecting("");
    private volatile long lastGoodMillis;

    public ConsoleModel() {
        this(System::currentTimeMillis);
    }

    public ConsoleModel(LongSupplier clockMillis) {
        this.clockMillis = clockMillis;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void received(Resource resource, Object value, long receivedAtMillis) {
        unrefreshed.remove(resource);
        if (resource == Resource.FLOWS) {
            replaceFlows((List<Flow>) value, receivedAtMillis);
            return;
        }
        latest.put(resource, new Stamped<>(value, receivedAtMillis));
        if (resource == Resource.COUNTERS) {
            history.counters((List<RouterCounters>) value, receivedAtMillis);
        }
        version.incrementAndGet();
    }

    /** The broker's whole list of flows: each updated, those it no longer lists removed. */
    public void replaceFlows(List<Flow> all, long receivedAtMillis) {
        Set<FlowKey> present = new HashSet<>();
        for (Flow f : all) {
            present.add(f.key());
            put(f, receivedAtMillis);
        }
        flows.keySet().retainAll(present);
        flowReceipts.keySet().retainAll(present);
        version.incrementAndGet();
    }

    /** One flow's latest state (a push channel's per-flow update, or a test's). */
    public void updateFlow(Flow f, long receivedAtMillis) {
        put(f, receivedAtMillis);
        version.incrementAndGet();
    }

    private void put(Flow f, long receivedAtMillis) {
        Long lastReceipt = flowReceipts.put(f.key(), receivedAtMillis);
        flows.put(f.key(), new Stamped<>(f, asOf(f, flows.get(f.key()), lastReceipt, receivedAtMillis)));
        history.flow(f, receivedAtMillis);
    }

    /**
     * How long a report may take to reach the console after it was made (the router sends it at
     * once, the broker at its next pulse): a new report's time earlier than this before the flow's
     * previous receipt, which did not carry it yet, is the router's clock running behind.
     */
    static final long REPORT_DELAY_MILLIS = 1_000;

    /**
     * When a flow's figures were so, on the console's clock. Its receipt before any report. A report
     * first seen: its router's report time, no later than the receipt (a router whose clock runs
     * ahead does not make old figures look new). A report that replaces one seen before was made
     * at most {@link #REPORT_DELAY_MILLIS} before the flow's previous receipt, which did not carry
     * it: its time, but no earlier than that, whatever the router's clock says (one running behind
     * does not make new figures look old). The same report received again (the broker sends every
     * flow when any changes) keeps the time it was given: a router that stopped reporting ages on
     * the console's clock, however far ahead its own runs.
     *
     * @param was         what was kept of the flow, or {@code null}
     * @param lastReceipt the flow's previous receipt, or {@code null}
     */
    static long asOf(Flow f, Stamped<Flow> was, Long lastReceipt, long receivedAtMillis) {
        FlowStatistics s = f.statistics();
        if (s == null) {
            return receivedAtMillis;
        }
        FlowStatistics before = was == null ? null : was.value().statistics();
        if (before != null && before.reportedAtMillis() == s.reportedAtMillis()) {
            return was.atMillis();
        }
        long asOf = s.reportedAtMillis();
        if (before != null && lastReceipt != null) {
            asOf = Math.max(asOf, lastReceipt - REPORT_DELAY_MILLIS);
        }
        return Math.min(receivedAtMillis, asOf);
    }

    /** The feed could not refresh {@code resource}: what is shown of it is kept, marked with why, until it is received again. */
    @Override
    public void unrefreshed(Resource resource, String why) {
        unrefreshed.put(resource, why);
        version.incrementAndGet();
    }

    @Override
    public void connection(ConnectionState state) {
        connection = state;
        if (state.kind() == ConnectionState.Kind.LIVE) {
            lastGoodMillis = state.lastGoodMillis();
        }
        version.incrementAndGet();
    }

    public long version() {
        return version.get();
    }

    public ChartHistory history() {
        return history;
    }

    /** A consistent-enough copy for one pulse: each element as it was last written. */
    @SuppressWarnings("unchecked")
    public ConsoleSnapshot snapshot() {
        long v = version.get();
        List<Stamped<Flow>> f = new ArrayList<>(flows.values());
        return new ConsoleSnapshot(v, clockMillis.getAsLong(), connection,
                (Stamped<BrokerStatus>) latest.get(Resource.STATUS), (Stamped<NetworkTopology>) latest.get(Resource.TOPOLOGY),
                (Stamped<List<RouterSession>>) latest.get(Resource.ROUTERS),
                (Stamped<List<RouterCounters>>) latest.get(Resource.COUNTERS),
                (Stamped<List<Variable>>) latest.get(Resource.VARIABLES),
                (Stamped<List<Subscription>>) latest.get(Resource.SUBSCRIPTIONS), f,
                (Stamped<List<Alarm>>) latest.get(Resource.ALARMS), (Stamped<List<Gateway>>) latest.get(Resource.DEVICES),
                lastGoodMillis, Map.copyOf(unrefreshed));
    }
}
