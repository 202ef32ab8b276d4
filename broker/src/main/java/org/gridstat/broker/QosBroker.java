package org.gridstat.broker;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.gridstat.broker.admission.AdmissionController;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.admission.SubscriptionRequest;
import org.gridstat.broker.catalog.PublishedVariable;
import org.gridstat.broker.catalog.VariableCatalog;
import org.gridstat.broker.control.ControlChannelServer;
import org.gridstat.broker.control.ControlLimits;
import org.gridstat.broker.control.RouterPresence;
import org.gridstat.broker.install.FlowInstaller;
import org.gridstat.broker.install.FlowPlanner;
import org.gridstat.broker.install.FlowRates;
import org.gridstat.broker.store.BrokerState;
import org.gridstat.broker.store.RememberedRequest;
import org.gridstat.broker.store.StateChange;
import org.gridstat.broker.store.StateJournal;
import org.gridstat.broker.topology.RouterNode;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.control.ControlMessage.InstallFlow;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;

/**
 * A QoS broker governing one topology: it keeps the declared variables, admits subscriptions,
 * plans the flows they need in each router, records every change in its journal and, once the
 * change is durable, installs it over the control channel. Decisions are serialised; journal
 * writes are pipelined, so admissions do not wait for each other's round trip to the store, and
 * their results complete in order. A journal failure stops the broker: what the store holds is
 * the truth, and a broker resumed from it takes over. A change whose flows a router could not be
 * sent is refused before it is recorded. Requests given an idempotency key are made once: the key
 * is recorded with the change (the last {@link #REMEMBERED_REQUESTS} keys are kept) and a repeat
 * gets the first answer, from this broker or its successor.
 */
public final class QosBroker implements AutoCloseable {
    /** How many keyed requests the broker remembers; a key older than these is taken as new. */
    public static final int REMEMBERED_REQUESTS = 1000;

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(QosBroker.class);
    private final Topology topology;
    private final AdmissionController admission;
    private final FlowPlanner planner;
    private final VariableCatalog variables;
    private final Map<Long, AdmittedSubscription> subscriptions = new TreeMap<>();
    private final StateJournal journal;
    /** The control channel to the routers; {@code null} for a broker {@link #inProcess}. */
    private final ControlChannelServer control;
    /** Re-plans congested HRT flows on their routers' alarms; {@code null} in process or when off. */
    private org.gridstat.broker.adapt.GlobalAdaptation adaptation;
    private java.util.concurrent.ScheduledExecutorService adaptationTimer;
    private final FlowInstaller installer;
    private final Consumer<Throwable> onJournalFailure;
    private final RememberedRequests remembered = new RememberedRequests(REMEMBERED_REQUESTS);
    /** The keyed request being decided, while {@link #once} runs it under the lock. */
    private KeyedRequest keyed;
    private long nextSubscriptionId = 1;
    private volatile Throwable failure;

    /** A broker that keeps its state in memory only. */
    public QosBroker(Topology topology, InetSocketAddress controlBind) {
        this(BrokerState.empty(topology), controlBind, StateJournal.MEMORY_ONLY, RouterPresence.NONE, e -> { });
    }

    /**
     * A broker resuming {@code state}: every subscription keeps its paths and every flow its id;
     * flow versions start above the epoch's base, so routers resynchronised by it take them as
     * current.
     *
     * @param onJournalFailure told once if recording a change fails; the broker refuses work from then on
     */
    public QosBroker(BrokerState state, InetSocketAddress controlBind, StateJournal journal, RouterPresence presence,
                     Consumer<Throwable> onJournalFailure) {
        this(state, controlBind, ControlLimits.DEFAULT, journal, presence, onJournalFailure);
    }

    /** The same, with the control channel's heartbeat timing, hello deadline and connection cap. */
    public QosBroker(BrokerState state, InetSocketAddress controlBind, ControlLimits controlLimits, StateJournal journal,
                     RouterPresence presence, Consumer<Throwable> onJournalFailure) {
        this(state, journal, onJournalFailure, null, controlBind, controlLimits, presence, true, FlowRates.DEFAULT);
    }

    /**
     * A broker that keeps its state in memory only, with its control channel, admitting with or
     * without the EDF test of hop deadlines ({@code testDeadlines} off: by bandwidth alone) and
     * giving flows {@code rates}' minimum rates and ceilings: what the simulator's broker does
     * ({@link #inProcess(Topology, FlowInstaller, boolean, FlowRates)}), for real routers.
     */
    public QosBroker(Topology topology, InetSocketAddress controlBind, ControlLimits controlLimits, boolean testDeadlines,
                     FlowRates rates) {
        this(BrokerState.empty(topology), StateJournal.MEMORY_ONLY, e -> { }, null, controlBind, controlLimits,
                RouterPresence.NONE, testDeadlines, rates);
    }

    /**
     * A broker in memory whose flow changes go to {@code installer} in the caller's thread, with
     * no control channel: the simulator and the console's what-if run the broker's own admission
     * and flow planning this way.
     */
    public static QosBroker inProcess(Topology topology, FlowInstaller installer) {
        return inProcess(topology, installer, true);
    }

    /**
     * The same; {@code testDeadlines} off admits by bandwidth alone, without the EDF test of hop
     * deadlines: the simulator's baseline of a network without deadline admission.
     */
    public static QosBroker inProcess(Topology topology, FlowInstaller installer, boolean testDeadlines) {
        return inProcess(topology, installer, testDeadlines, FlowRates.DEFAULT);
    }

    /** The same, giving flows {@code rates}' minimum rates and ceilings. */
    public static QosBroker inProcess(Topology topology, FlowInstaller installer, boolean testDeadlines, FlowRates rates) {
        return new QosBroker(BrokerState.empty(topology), StateJournal.MEMORY_ONLY, e -> { }, installer, null, null, null,
                testDeadlines, rates);
    }

    private QosBroker(BrokerState state, StateJournal journal, Consumer<Throwable> onJournalFailure, FlowInstaller inProcess,
                      InetSocketAddress controlBind, ControlLimits controlLimits, RouterPresence presence,
                      boolean testDeadlines, FlowRates rates) {
        this.topology = state.topology();
        this.variables = new VariableCatalog(topology);
        this.planner = new FlowPlanner((long) state.epoch() << 32, rates, id -> {
            PublishedVariable v = variables.byId(id);
            return v == null ? "" : v.correlationGroup(); // a flow's correlation group: its variable's substation
        }, id -> {
            RouterNode r = topology.router(id);
            return r == null ? null : r.address();
        });
        this.admission = new AdmissionController(topology, testDeadlines);
        this.journal = journal;
        this.onJournalFailure = onJournalFailure;
        state.variables().forEach(variables::put);
        nextSubscriptionId = Math.max(1, state.nextSubscriptionId());
        state.remembered().forEach(remembered::load);
        for (AdmittedSubscription stored : state.subscriptions()) {
            AdmittedSubscription s = new AdmittedSubscription(stored.request(), stored.variableName(),
                    admission.restore(stored.request(), stored.admitted()), stored.flowIds());
            planner.restore(s.request(), s.admitted(), s.flowIds());
            subscriptions.put(s.id(), s);
            nextSubscriptionId = Math.max(nextSubscriptionId, s.id() + 1);
        }
        planner.continueFlowIdsFrom(state.nextFlowId()); // above the ids of flows torn down before this broker
        if (inProcess != null) {
            this.control = null;
            this.installer = inProcess;
            return;
        }
        this.control = new ControlChannelServer(controlBind,
                topology.routers().stream().map(RouterNode::id).collect(Collectors.toSet()), planner.flows(), presence,
                controlLimits);
        Map<String, List<org.gridstat.core.control.ControlMessage.OutLink>> outLinks = new TreeMap<>();
        for (RouterNode r : topology.routers()) {
            if (!topology.outLinks(r).isEmpty()) { // nothing to say to a router whose file names its links
                outLinks.put(r.id(), topology.outLinks(r));
            }
        }
        control.outLinks(outLinks);
        this.installer = control;
        ControlLimits limits = controlLimits == null ? ControlLimits.DEFAULT : controlLimits;
        if (limits.adaptationDelayNanos() != ControlLimits.NO_ADAPTATION) {
            adaptationTimer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "gridstat-adaptation");
                t.setDaemon(true);
                return t;
            });
            adaptation = new org.gridstat.broker.adapt.GlobalAdaptation(this,
                    java.time.Duration.ofNanos(limits.adaptationDelayNanos()),
                    (delay, task) -> adaptationTimer.schedule(task, delay, java.util.concurrent.TimeUnit.NANOSECONDS),
                    org.gridstat.core.time.SystemNanoClock.INSTANCE, (router, flowId) -> {
                        org.gridstat.broker.control.FlowReports.Latest l = control.reports().latest(router, flowId);
                        return l != null && l.sample().shortfall() > 0;
                    }, o -> {
                        control.alarms().raise(o.router(), o.kind() == org.gridstat.broker.adapt.GlobalAdaptation.Outcome.Kind.GROWN
                                || o.kind() == org.gridstat.broker.adapt.GlobalAdaptation.Outcome.Kind.STORED
                                ? org.gridstat.broker.control.AlarmLog.Kind.ADAPTED
                                : o.kind() == org.gridstat.broker.adapt.GlobalAdaptation.Outcome.Kind.REFUSED
                                ? org.gridstat.broker.control.AlarmLog.Kind.ADAPTATION_REFUSED
                                : org.gridstat.broker.control.AlarmLog.Kind.GENERAL, "flow " + o.flowId(), o.toString());
                        LOG.warn("global adaptation: {}", o);
                    });
            control.onShortfall((router, sample) -> adaptation.unmet(router, sample.flowId(),
                    sample.assuredRate() + sample.shortfall()));
        }
    }

    /**
     * Global adaptation for an in-process broker (the simulator): re-plans on {@code scheduler}'s
     * time, with {@code stillShort} saying whether a flow is still short; call
     * {@link org.gridstat.broker.adapt.GlobalAdaptation#unmet} on it for each alarm.
     */
    public synchronized org.gridstat.broker.adapt.GlobalAdaptation adaptInProcess(java.time.Duration delay,
            org.gridstat.broker.adapt.GlobalAdaptation.Scheduler scheduler, org.gridstat.core.time.NanoClock clock,
            org.gridstat.broker.adapt.GlobalAdaptation.StillShort stillShort,
            Consumer<org.gridstat.broker.adapt.GlobalAdaptation.Outcome> listener) {
        if (control != null || adaptation != null) {
            throw new IllegalStateException("this broker adapts already, or from its control channel");
        }
        adaptation = new org.gridstat.broker.adapt.GlobalAdaptation(this, delay, scheduler, clock, stillShort, listener);
        return adaptation;
    }

    /** Global adaptation, or {@code null}: off. */
    public org.gridstat.broker.adapt.GlobalAdaptation adaptation() {
        return adaptation;
    }

    /**
     * Declares a published variable; declaring the same again returns the existing one.
     *
     * @throws IllegalArgumentException if a field is invalid or the name is taken with other attributes
     */
    public CompletableFuture<PublishedVariable> declare(String name, String router, int frameBytes, long intervalNanos,
                                                        ServiceClass serviceClass, String correlationGroup) {
        synchronized (this) {
            checkHealthy();
            PublishedVariable v = variables.resolve(name, router, frameBytes, intervalNanos, serviceClass, correlationGroup);
            if (variables.byName(name) != null) {
                return CompletableFuture.completedFuture(v);
            }
            variables.put(v);
            return record(StateChange.declared(v), List.of()).thenApply(x -> v);
        }
    }

    /**
     * Admits a subscription to a declared variable, delivered at a router over its out-link named
     * {@code subscriberLink}; on admission its flows are recorded, then installed.
     */
    public CompletableFuture<AdmissionResult> subscribe(String variable, String subscriberRouter, String subscriberLink,
                                                        QosSpec qos) {
        return subscribe(variable, subscriberRouter, subscriberLink, qos, 0, 0);
    }

    /**
     * The same for a segment of a longer path (a parent broker's): {@code downstreamNanos} is the
     * budget of the path after the subscriber router's out-link, added to every hop's downstream
     * budget so that hop deadlines count from the end-to-end deadline; {@code minRestNanos} is the
     * least delay of the path from that out-link on, as far as the caller knows it, added to every
     * hop's least rest-of-path delay.
     */
    public CompletableFuture<AdmissionResult> subscribe(String variable, String subscriberRouter, String subscriberLink,
                                                        QosSpec qos, long downstreamNanos, long minRestNanos) {
        if (downstreamNanos < 0 || minRestNanos < 0) {
            throw new IllegalArgumentException("downstream budget and rest delay must not be negative");
        }
        // A segment handing on to another cloud leaves over a border link its parent governs, not a delivery link.
        String refusal = downstreamNanos == 0 ? topology.deliveryRefusal(subscriberRouter, subscriberLink) : null;
        if (refusal != null) {
            throw new IllegalArgumentException(refusal);
        }
        synchronized (this) {
            checkHealthy();
            if (topology.router(subscriberRouter) == null) {
                throw new IllegalArgumentException("no router '" + subscriberRouter + "' in the topology");
            }
            PublishedVariable v = variables.byName(variable);
            if (v == null) {
                return CompletableFuture.completedFuture(new AdmissionResult.Rejected(0,
                        "no variable '" + variable + "' is declared"));
            }
            return admit(request(nextSubscriptionId++, v, subscriberRouter, subscriberLink, qos), v.name(), downstreamNanos,
                    minRestNanos);
        }
    }

    /** Admits a subscription given in full (variable by id, its ids chosen by the caller). */
    public AdmissionResult subscribe(SubscriptionRequest request) {
        return join(subscribeAsync(request));
    }

    /** The same, completing once the admission is durable (pipelined: no waiting for earlier ones). */
    public CompletableFuture<AdmissionResult> subscribeAsync(SubscriptionRequest request) {
        synchronized (this) {
            checkHealthy();
            nextSubscriptionId = Math.max(nextSubscriptionId, request.subscriptionId() + 1);
            return admit(request, "", 0, 0);
        }
    }

    private CompletableFuture<AdmissionResult> admit(SubscriptionRequest request, String variableName, long downstreamNanos,
                                                     long minRestNanos) {
        AdmissionResult result = admission.admit(request);
        if (!(result instanceof AdmissionResult.Admitted computed)) {
            return CompletableFuture.completedFuture(result);
        }
        AdmissionResult.Admitted admitted = computed.followedBy(downstreamNanos, minRestNanos);
        List<FlowPlanner.Change> changes;
        try {
            changes = planner.add(request, admitted);
        } catch (RuntimeException e) {
            admission.release(request.subscriptionId());
            throw e;
        }
        String unsendable = unsendable(changes);
        if (unsendable != null) {
            planner.remove(request.subscriptionId());
            admission.release(request.subscriptionId());
            throw new IllegalArgumentException(unsendable);
        }
        AdmittedSubscription s = new AdmittedSubscription(request, variableName, admitted,
                planner.flowIdsOf(request.subscriptionId()));
        subscriptions.put(s.id(), s);
        return record(StateChange.added(s), changes).thenApply(x -> admitted);
    }

    /**
     * Changes a subscription's QoS: it is admitted afresh with the new spec and keeps its old
     * paths and flows if the new spec cannot be admitted.
     */
    public CompletableFuture<AdmissionResult> modify(long subscriptionId, QosSpec qos) {
        return modify(subscriptionId, current -> qos);
    }

    /**
     * The same with the new spec made from the current one, under the broker's lock: a change of
     * some fields keeps the others as they are at that moment.
     *
     * @throws IllegalArgumentException if {@code change} makes no valid spec
     */
    public CompletableFuture<AdmissionResult> modify(long subscriptionId, UnaryOperator<QosSpec> change) {
        return modify(subscriptionId, change, 0);
    }

    /**
     * The same for global adaptation: the publisher is taken to publish every
     * {@code publisherIntervalNanos} (its routers measured it, above its declared rate), so the
     * subscription may be admitted up to that rate; 0 keeps the declared interval.
     */
    public CompletableFuture<AdmissionResult> modify(long subscriptionId, UnaryOperator<QosSpec> change,
                                                     long publisherIntervalNanos) {
        synchronized (this) {
            checkHealthy();
            AdmittedSubscription old = subscriptions.get(subscriptionId);
            if (old == null) {
                return CompletableFuture.completedFuture(new AdmissionResult.Rejected(subscriptionId,
                        "no subscription " + subscriptionId));
            }
            SubscriptionRequest changed = changed(old, change, publisherIntervalNanos);
            AdmissionResult result = tryInstead(old, changed);
            if (!(result instanceof AdmissionResult.Admitted computed)) {
                return CompletableFuture.completedFuture(result);
            }
            List<AdmissionResult.Admitted> installed = new ArrayList<>();
            return install(List.of(old), List.of(changed), List.of(computed), installed)
                    .thenApply(x -> installed.get(0));
        }
    }

    private static SubscriptionRequest changed(AdmittedSubscription old, UnaryOperator<QosSpec> change,
                                               long publisherIntervalNanos) {
        SubscriptionRequest r = old.request();
        return new SubscriptionRequest(r.subscriptionId(), r.variable(), r.publisherRouter(), r.subscriberRouter(),
                r.frameBytes(), change.apply(r.qos()), r.subscriberLink(), publisherIntervalNanos > 0
                ? Math.min(publisherIntervalNanos, r.publisherIntervalNanos()) : r.publisherIntervalNanos());
    }

    /** What {@link #replan} did: the change's admission, and the subscriptions moved for it (none unless admitted). */
    public record Replan(AdmissionResult result, List<Long> moved) {
        public Replan {
            moved = List.copyOf(moved);
        }
    }

    /**
     * Global adaptation's re-plan of one subscription, as one step under the broker's lock: the
     * change is admitted if it can be; else the subscriptions that cross {@code congested} are
     * moved a variable at a time (see {@link #movable}), each admitted afresh with its QoS over
     * paths that avoid the link where one can carry it, and only where that gives back room of the
     * changed subscription's class there; the change is tried again after each move, for at most
     * {@code maxTries} variables. If the change is admitted at last, the moves and the change
     * are installed and recorded together; if not, nothing changes and the result says why.
     */
    public CompletableFuture<Replan> replan(long subscriptionId, UnaryOperator<QosSpec> change, long publisherIntervalNanos,
                                            org.gridstat.broker.topology.Link congested, int maxTries) {
        synchronized (this) {
            checkHealthy();
            AdmittedSubscription grow = subscriptions.get(subscriptionId);
            if (grow == null) {
                return CompletableFuture.completedFuture(new Replan(new AdmissionResult.Rejected(subscriptionId,
                        "no subscription " + subscriptionId), List.of()));
            }
            SubscriptionRequest grown = changed(grow, change, publisherIntervalNanos);
            ServiceClass c = grown.qos().serviceClass();
            List<AdmittedSubscription> before = new ArrayList<>();
            List<SubscriptionRequest> after = new ArrayList<>();
            List<AdmissionResult.Admitted> placed = new ArrayList<>();
            AdmissionResult result = tryInstead(grow, grown);
            int tries = 0;
            for (List<AdmittedSubscription> unit : movable(grow, congested)) {
                if (result instanceof AdmissionResult.Admitted || tries++ == maxTries) {
                    break;
                }
                // A variable's subscriptions share its flow on the link: they move together, and only
                // if that gives back room of the growing one's class there (a lower class's flow may
                // hold it: a flow's reservation is its subscribers' highest rate, in its most urgent class).
                long held = admission.reserved(congested, c);
                unit.forEach(x -> admission.release(x.id()));
                List<AdmissionResult.Admitted> moved = new ArrayList<>();
                if (admission.reserved(congested, c) < held) {
                    for (AdmittedSubscription x : unit) {
                        AdmissionResult m = admission.admit(x.request(), l -> l.index() == congested.index());
                        if (!(m instanceof AdmissionResult.Admitted a)) {
                            break;
                        }
                        moved.add(a);
                    }
                }
                if (moved.size() < unit.size()) {
                    for (int i = 0; i < moved.size(); i++) {
                        admission.release(unit.get(i).id());
                    }
                    unit.forEach(x -> admission.restore(x.request(), x.admitted()));
                    continue;
                }
                before.addAll(unit);
                unit.forEach(x -> after.add(x.request()));
                placed.addAll(moved);
                result = tryInstead(grow, grown);
            }
            if (!(result instanceof AdmissionResult.Admitted g)) {
                for (int i = before.size() - 1; i >= 0; i--) { // nothing moves for a growth that fails
                    admission.release(before.get(i).id());
                }
                before.forEach(x -> admission.restore(x.request(), x.admitted()));
                return CompletableFuture.completedFuture(new Replan(result, List.of()));
            }
            before.add(grow);
            after.add(grown);
            placed.add(g);
            List<AdmissionResult.Admitted> installed = new ArrayList<>();
            List<Long> moved = before.subList(0, before.size() - 1).stream().map(AdmittedSubscription::id).toList();
            return install(before, after, placed, installed)
                    .thenApply(x -> new Replan(installed.get(installed.size() - 1), moved));
        }
    }

    /** Admits {@code changed} in place of {@code old} at admission only; on refusal {@code old} is back as it was. */
    private AdmissionResult tryInstead(AdmittedSubscription old, SubscriptionRequest changed) {
        admission.release(old.id());
        AdmissionResult r = admission.admit(changed);
        if (!(r instanceof AdmissionResult.Admitted)) {
            admission.restore(old.request(), old.admitted());
        }
        return r;
    }

    /**
     * The subscriptions whose move off {@code link} could make room there for {@code growing}, by
     * variable (they share its flow), in the order tried: those of the growing one's correlation
     * group first (as congestion control takes its victims), then the largest reservations. Only a
     * variable with a subscriber of the growing one's class (or a more urgent one) holds room of
     * that class, whatever the class of its fastest subscriber: the others are not tried, and
     * priority does not order those that are.
     */
    private List<List<AdmittedSubscription>> movable(AdmittedSubscription growing, org.gridstat.broker.topology.Link link) {
        String group = growing.request().qos().correlationGroup();
        Map<Long, List<AdmittedSubscription>> byVariable = new TreeMap<>();
        for (AdmittedSubscription x : subscriptions.values()) {
            if (x.id() != growing.id() && !x.request().variable().equals(growing.request().variable()) && crosses(x, link)) {
                byVariable.computeIfAbsent(x.request().variable().value(), v -> new ArrayList<>()).add(x);
            }
        }
        // only a variable with a subscriber of the growing class, or a more urgent one, holds room of that class
        ServiceClass c = growing.request().qos().serviceClass();
        byVariable.values().removeIf(u -> u.stream().noneMatch(x -> x.request().qos().serviceClass().ordinal() <= c.ordinal()));
        return byVariable.values().stream()
                .sorted(java.util.Comparator.<List<AdmittedSubscription>, Boolean>comparing(
                                u -> u.stream().noneMatch(x -> x.request().qos().correlationGroup().equals(group)))
                        .thenComparingLong(u -> -u.stream().mapToLong(x -> x.request().bytesPerSecond()).max().orElse(0)))
                .toList();
    }

    private static boolean crosses(AdmittedSubscription s, org.gridstat.broker.topology.Link link) {
        for (List<AdmissionResult.Hop> path : s.admitted().paths()) {
            for (AdmissionResult.Hop h : path) {
                if (h.router().equals(link.from().id()) && h.next().equals(link.to().id())) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Installs subscriptions admitted afresh at admission ({@code placed}, in place of
     * {@code before}): their flows planned and recorded together, and what each now holds (its
     * paths followed by what its old ones had beyond the subscriber router) added to
     * {@code installed}. If one cannot be sent to its routers, every one is put back as it was, at
     * the planner and at admission, and {@link IllegalArgumentException} says why.
     */
    private CompletableFuture<Void> install(List<AdmittedSubscription> before, List<SubscriptionRequest> after,
                                            List<AdmissionResult.Admitted> placed,
                                            List<AdmissionResult.Admitted> installed) {
        List<List<Long>> heldVersions = new ArrayList<>();
        List<List<FlowPlanner.Change>> changes = new ArrayList<>();
        List<AdmissionResult.Admitted> admitted = new ArrayList<>();
        for (int i = 0; i < before.size(); i++) {
            AdmittedSubscription old = before.get(i);
            AdmissionResult.Admitted a = placed.get(i).followedBy(old.downstreamNanos(), old.minRestAfterNanos());
            heldVersions.add(planner.versionsOf(old.id()));
            List<FlowPlanner.Change> c = planner.replace(after.get(i), a);
            admitted.add(a);
            changes.add(c);
            String unsendable = unsendable(c);
            if (unsendable != null) {
                for (int j = i; j >= 0; j--) { // back to the flows, ids and versions the routers hold
                    AdmittedSubscription o = before.get(j);
                    planner.remove(o.id());
                    planner.restore(o.request(), o.admitted(), o.flowIds());
                    planner.restoreVersions(o.id(), heldVersions.get(j));
                }
                for (int j = before.size() - 1; j >= 0; j--) {
                    admission.release(before.get(j).id());
                    admission.restore(before.get(j).request(), before.get(j).admitted());
                }
                throw new IllegalArgumentException(unsendable);
            }
        }
        installed.addAll(admitted);
        List<CompletableFuture<Void>> recorded = new ArrayList<>();
        for (int i = 0; i < before.size(); i++) {
            AdmittedSubscription s = new AdmittedSubscription(after.get(i), before.get(i).variableName(), admitted.get(i),
                    planner.flowIdsOf(before.get(i).id()));
            subscriptions.put(s.id(), s);
            recorded.add(record(StateChange.modified(s), changes.get(i)));
        }
        return allRecorded(recorded);
    }

    /**
     * Done when every one of {@code recorded} is; failed, if any failed, with a failure to store
     * ahead of a failure to send what was stored ({@link StoredButNotInstalledException}): "stored"
     * must not be said of a change part of which was not.
     */
    static CompletableFuture<Void> allRecorded(List<CompletableFuture<Void>> recorded) {
        return CompletableFuture.allOf(recorded.toArray(CompletableFuture[]::new)).handle((done, first) -> {
            if (first == null) {
                return null;
            }
            Throwable notSent = null;
            for (CompletableFuture<Void> f : recorded) {
                Throwable t = f.handle((v, e) -> e).join();
                Throwable cause = Failures.unwrap(t);
                if (cause instanceof StoredButNotInstalledException) {
                    notSent = notSent == null ? cause : notSent;
                } else if (cause != null) {
                    throw t instanceof CompletionException c ? c : new CompletionException(cause);
                }
            }
            throw new CompletionException(notSent);
        });
    }

    /** Frees a subscription's reservations and removes what only it needed; false if unknown. */
    public CompletableFuture<Boolean> unsubscribeAsync(long subscriptionId) {
        synchronized (this) {
            checkHealthy();
            if (!admission.release(subscriptionId)) {
                return CompletableFuture.completedFuture(false);
            }
            subscriptions.remove(subscriptionId);
            List<FlowPlanner.Change> changes = planner.remove(subscriptionId);
            return record(StateChange.removed(subscriptionId), changes).thenApply(x -> true);
        }
    }

    public boolean unsubscribe(long subscriptionId) {
        return join(unsubscribeAsync(subscriptionId));
    }

    /**
     * Runs a mutating request at most once per key. A key remembered gets {@code repeat} of the
     * first request, once that request's change is durable; a new key runs {@code work}, whose
     * change records the key with the answer {@code answerOf} makes of the change, in the same
     * transaction, and is answered with {@code repeat} of it too, so first answer and repeats are
     * alike. A request that changes nothing (refused, or a declaration made before) is not
     * remembered.
     *
     * @param fingerprint what the request asked, for the caller's {@code repeat} to compare
     */
    public <R> CompletableFuture<R> once(String key, String fingerprint,
                                         Function<StateChange, RememberedRequest.Answer> answerOf,
                                         Supplier<CompletableFuture<R>> work, Function<RememberedRequest, R> repeat) {
        synchronized (this) {
            checkHealthy();
            RememberedRequests.Entry known = remembered.get(key);
            if (known != null) {
                return known.durable().thenApply(x -> repeat.apply(known.request()));
            }
            KeyedRequest k = new KeyedRequest(key, fingerprint, answerOf);
            keyed = k;
            CompletableFuture<R> done;
            try {
                done = work.get();
            } finally {
                keyed = null;
            }
            RememberedRequest made = k.recorded;
            return made == null ? done : done.thenApply(x -> repeat.apply(made));
        }
    }

    /** A keyed request being decided: what its change will remember. */
    private static final class KeyedRequest {
        final String key;
        final String fingerprint;
        final Function<StateChange, RememberedRequest.Answer> answerOf;
        RememberedRequest recorded;

        KeyedRequest(String key, String fingerprint, Function<StateChange, RememberedRequest.Answer> answerOf) {
            this.key = key;
            this.fingerprint = fingerprint;
            this.answerOf = answerOf;
        }
    }

    /**
     * Records a change; once durable, sends its flow changes to the routers. Call holding the lock.
     * A failure to send, after the change is stored, is reported as {@link StoredButNotInstalledException}.
     */
    private CompletableFuture<Void> record(StateChange change, List<FlowPlanner.Change> flows) {
        StateChange c = change.withNextSubscriptionId(nextSubscriptionId).withNextFlowId(planner.nextFlowId());
        CompletableFuture<Void> durable = null;
        KeyedRequest k = keyed;
        if (k != null && k.recorded == null) {
            RememberedRequest.Answer a = k.answerOf.apply(c);
            k.recorded = new RememberedRequest(k.key, k.fingerprint, a.status(), a.body());
            durable = new CompletableFuture<>();
            c = c.withRemembered(k.recorded, remembered.add(k.recorded, durable));
        }
        CompletableFuture<Void> written = journal.record(c).whenComplete((x, e) -> {
            if (e != null) {
                fail(e);
            }
        });
        if (durable != null) {
            CompletableFuture<Void> d = durable;
            written.whenComplete((x, e) -> {
                if (e != null) {
                    d.completeExceptionally(e);
                } else {
                    d.complete(null);
                }
            });
        }
        String what = describe(change);
        return written.thenRun(() -> {
            if (failure == null) { // after a failure the next leader resynchronises the routers from the store
                apply(flows, what);
            }
        });
    }

    private static String describe(StateChange c) {
        if (c.variable() != null) {
            return "variable '" + c.variable().name() + "' declared";
        }
        if (c.putSubscription() != null) {
            return "subscription " + c.putSubscription().id() + (c.newSubscription() ? " admitted" : " modified");
        }
        return "subscription " + c.removedSubscription() + " removed";
    }

    /**
     * Why a router could not be sent one of these flows, or {@code null} if every one encodes: an
     * install the control channel cannot carry must never be stored, or every broker resuming the
     * state would fail to resynchronise that router.
     */
    private static String unsendable(List<FlowPlanner.Change> changes) {
        for (FlowPlanner.Change c : changes) {
            if (c.isRemoval()) {
                continue;
            }
            try {
                ControlCodec.checkEncodable(c.install());
            } catch (RuntimeException e) {
                return "the flow for router " + c.router() + " over '" + c.install().link()
                        + "' cannot be sent to it: " + e.getMessage();
            }
        }
        return null;
    }

    private void fail(Throwable e) {
        boolean first;
        synchronized (this) {
            first = failure == null;
            if (first) {
                failure = e;
            }
        }
        if (first) {
            onJournalFailure.accept(e);
        }
    }

    private void checkHealthy() {
        if (failure != null) {
            throw new BrokerStoppedException("broker stopped: recording a change failed: " + failure.getMessage(), failure);
        }
    }

    /** Sends every change, even past one that fails; the first failure is reported after. */
    private void apply(List<FlowPlanner.Change> changes, String what) {
        RuntimeException first = null;
        for (FlowPlanner.Change c : changes) {
            try {
                if (c.isRemoval()) {
                    installer.remove(c.router(), c.removeFlowId(), c.removeVersion());
                } else {
                    installer.install(c.router(), c.install());
                }
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw new StoredButNotInstalledException(what + " and stored, but sending it to the routers failed: "
                    + first.getMessage(), first);
        }
    }

    private static SubscriptionRequest request(long id, PublishedVariable v, String subscriberRouter, String subscriberLink,
                                               QosSpec qos) {
        return new SubscriptionRequest(id, VariableId.of(v.id()), v.router(), subscriberRouter, v.frameBytes(), qos,
                subscriberLink, v.intervalNanos());
    }

    private static <T> T join(CompletableFuture<T> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    /** The subscriptions a router's flow carries (none: no such flow). */
    public synchronized List<AdmittedSubscription> subscriptionsOn(String router, long flowId) {
        return planner.subscriptionsOn(router, flowId).stream().map(subscriptions::get).filter(java.util.Objects::nonNull)
                .toList();
    }

    public Topology topology() {
        return topology;
    }

    public synchronized List<PublishedVariable> variables() {
        return new ArrayList<>(variables.all());
    }

    public synchronized List<AdmittedSubscription> subscriptions() {
        return new ArrayList<>(subscriptions.values());
    }

    public synchronized AdmittedSubscription subscription(long id) {
        return subscriptions.get(id);
    }

    /** Every flow the routers should hold, by router. */
    public synchronized Map<String, List<InstallFlow>> flows() {
        return planner.flows();
    }

    public InetSocketAddress controlAddress() {
        if (control == null) {
            throw new IllegalStateException("a broker in process has no control channel");
        }
        return control.address();
    }

    public ControlChannelServer control() {
        return control;
    }

    public AdmissionController admission() {
        return admission;
    }

    @Override
    public void close() {
        if (adaptationTimer != null) {
            adaptationTimer.shutdownNow();
        }
        if (control != null) {
            control.close();
        }
    }
}
