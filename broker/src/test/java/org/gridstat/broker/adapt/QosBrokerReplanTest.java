package org.gridstat.broker.adapt;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.catalog.PublishedVariable;
import org.gridstat.broker.control.RouterPresence;
import org.gridstat.broker.install.FlowInstaller;
import org.gridstat.broker.store.BrokerState;
import org.gridstat.broker.store.StateChange;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.RouterNode;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.control.ControlMessage.InstallFlow;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.junit.jupiter.api.Test;

/** QosBroker.replan: its bookkeeping on refusal, its rollback, its journal and what routers are sent. */
class QosBrokerReplanTest {
    private static final long MS = 1_000_000L;
    private static final FlowInstaller NOTHING = NoInstalls.INSTANCE;

    private static Topology.Builder topology(long direct, Map<ServiceClass, Integer> shares, boolean wayRound) {
        Topology.Builder b = Topology.builder().router("r1", 100_000_000, MS, "").router("r2", 100_000_000, MS, "")
                .router("r3", 100_000_000, MS, "")
                .link("r1", "r2", direct, MS, shares);
        if (wayRound) {
            b.link("r1", "r3", 100_000_000, 40 * MS, Topology.Builder.defaultShares())
                    .link("r3", "r2", 100_000_000, 40 * MS, Topology.Builder.defaultShares());
        }
        return b;
    }

    private static AdmittedSubscription admit(QosBroker b, String variable, String link, double hz, ServiceClass c,
                                              Duration bound) {
        AdmissionResult r = b.subscribe(variable, "r2", link, QosSpec.builder().rateHz(hz).latencyBound(bound)
                .serviceClass(c).build()).join();
        assertInstanceOf(AdmissionResult.Admitted.class, r, r.toString());
        return b.subscription(((AdmissionResult.Admitted) r).subscriptionId());
    }

    private static UnaryOperator400 grow(double hz) {
        return new UnaryOperator400(hz);
    }

    record UnaryOperator400(double hz) implements java.util.function.UnaryOperator<QosSpec> {
        public QosSpec apply(QosSpec q) {
            return QosSpec.builder().rateHz(hz).latencyBound(q.latencyBound()).serviceClass(q.serviceClass())
                    .correlationGroup(q.correlationGroup()).paths(q.paths()).build();
        }
    }

    /** Everything admission holds, per link and class, per router, and how many it admits. */
    private static Map<String, Long> bookkeeping(QosBroker b) {
        Map<String, Long> out = new TreeMap<>();
        for (Link l : b.topology().links()) {
            for (ServiceClass c : ServiceClass.values()) {
                out.put(l.name() + " reserved " + c, b.admission().reserved(l, c));
                out.put(l.name() + " installed " + c, b.admission().installed(l, c));
            }
        }
        for (RouterNode r : b.topology().routers()) {
            out.put(r.id() + " events", b.admission().reserved(r));
        }
        out.put("admitted", (long) b.admission().admittedCount());
        return out;
    }

    private static Map<String, List<InstallFlow>> flows(QosBroker b, boolean versions) {
        return byRouterAndFlow(b.flows(), versions);
    }

    /** Each router's flows in flow-id order, routers in name order; with their versions or at version 0. */
    private static Map<String, List<InstallFlow>> byRouterAndFlow(Map<String, List<InstallFlow>> flows, boolean versions) {
        Map<String, List<InstallFlow>> out = new TreeMap<>();
        flows.forEach((r, l) -> out.put(r, l.stream().map(f -> versions ? f : f.withVersion(0))
                .sorted(java.util.Comparator.comparingLong(f -> f.spec().flowId())).toList()));
        return out;
    }

    /** What a refused re-plan must leave as it found it: admission's books, the planned flows, the subscriptions. */
    private record Held(Map<String, Long> bookkeeping, Map<String, List<InstallFlow>> flows,
                        List<AdmittedSubscription> subscriptions) {
        static Held of(QosBroker b, boolean versions) {
            return new Held(QosBrokerReplanTest.bookkeeping(b), QosBrokerReplanTest.flows(b, versions),
                    b.subscriptions());
        }
    }

    /** Releasing everything left must give back exactly zero everywhere: nothing leaked by a rollback. */
    private static void drainsToZero(QosBroker b) {
        for (AdmittedSubscription s : b.subscriptions()) {
            assertTrue(b.unsubscribe(s.id()));
        }
        bookkeeping(b).forEach((k, v) -> assertEquals(0L, v, k));
    }

    /**
     * (1) A unit's first subscription moves, its second cannot (its 30 ms bound): the unit is put back,
     * and the growth refused; admission exactly as before.
     */
    @Test
    void aUnitWhoseSecondSubscriptionCannotMoveLeavesAdmissionExactlyAsItWas() {
        QosBroker b = QosBroker.inProcess(topology(240_000, Topology.Builder.defaultShares(), true).build(), NOTHING);
        b.declare("pmu", "r1", 260, 2_500_000, ServiceClass.HRT, "g").join();
        b.declare("other", "r1", 260, 2_500_000, ServiceClass.HRT, "g").join();
        AdmittedSubscription pmu = admit(b, "pmu", "cc", 100, ServiceClass.HRT, Duration.ofMillis(30));
        admit(b, "other", "cc", 200, ServiceClass.HRT, Duration.ofMillis(500));
        admit(b, "other", "cc2", 200, ServiceClass.HRT, Duration.ofMillis(30)); // cannot go the long way round
        Held before = Held.of(b, true);
        QosBroker.Replan r = b.replan(pmu.id(), grow(300), 0, b.topology().link("r1", "r2"), 16).join();
        assertInstanceOf(AdmissionResult.Rejected.class, r.result(), r.toString());
        assertEquals(List.of(), r.moved());
        assertEquals(before, Held.of(b, true));
        drainsToZero(b);
    }

    /**
     * (1) Units moved, growth still refused (refused on r2->r5 too): everything as it was.
     */
    @Test
    void movesUndoneAfterARefusedGrowthLeaveAdmissionExactlyAsItWas() {
        Topology t = topology(240_000, Topology.Builder.defaultShares(), true).router("r5", 10_000_000, MS, "")
                .link("r2", "r5", 240_000, MS, Topology.Builder.defaultShares()).build();
        QosBroker b = QosBroker.inProcess(t, NOTHING);
        for (String v : List.of("pmu", "other", "third")) {
            b.declare(v, "r1", 260, 2_500_000, ServiceClass.HRT, "g").join();
        }
        b.declare("blocker", "r2", 260, 2_500_000, ServiceClass.HRT, "g").join();
        AdmissionResult p = b.subscribe("pmu", "r5", "cc", QosSpec.builder().rateHz(200)
                .latencyBound(Duration.ofMillis(30)).serviceClass(ServiceClass.HRT).build()).join();
        admit(b, "other", "cc", 100, ServiceClass.HRT, Duration.ofMillis(500));
        admit(b, "other", "cc2", 50, ServiceClass.LRT, Duration.ofMillis(500));
        admit(b, "third", "cc", 100, ServiceClass.HRT, Duration.ofMillis(500));
        assertInstanceOf(AdmissionResult.Admitted.class, b.subscribe("blocker", "r5", "cc", QosSpec.builder().rateHz(200)
                .latencyBound(Duration.ofMillis(500)).serviceClass(ServiceClass.HRT).build()).join());
        Held before = Held.of(b, true);
        QosBroker.Replan r = b.replan(((AdmissionResult.Admitted) p).subscriptionId(), grow(400), 0,
                t.link("r1", "r2"), 16).join();
        assertInstanceOf(AdmissionResult.Rejected.class, r.result(), r.toString());
        assertEquals(before, Held.of(b, true));
        drainsToZero(b);
    }

    /**
     * Variables that hold no room of the growing class (best effort alone) are not tried: forty large
     * best-effort variables on the link do not use up the tries before the HRT variable whose move
     * makes room.
     */
    @Test
    void variablesHoldingNoRoomOfTheClassDoNotUseUpTheTries() {
        bestEffortBeforeOther(40);
    }

    private void bestEffortBeforeOther(int n) {
        Map<ServiceClass, Integer> shares = new java.util.EnumMap<>(ServiceClass.class);
        shares.put(ServiceClass.HRT, 10);
        shares.put(ServiceClass.LRT, 0);
        shares.put(ServiceClass.BE, 90);
        QosBroker b = QosBroker.inProcess(topology(1_200_000, shares, true).build(), NOTHING); // 120,000 B/s of HRT
        b.declare("pmu", "r1", 260, 2_500_000, ServiceClass.HRT, "").join();
        b.declare("other", "r1", 260, 2_500_000, ServiceClass.HRT, "").join();
        AdmittedSubscription pmu = admit(b, "pmu", "cc", 200, ServiceClass.HRT, Duration.ofMillis(30));
        AdmittedSubscription other = admit(b, "other", "cc", 200, ServiceClass.HRT, Duration.ofMillis(500));
        for (int i = 0; i < n; i++) {
            b.declare("be" + i, "r1", 260, 2_500_000, ServiceClass.BE, "").join();
            admit(b, "be" + i, "cc", 210, ServiceClass.BE, Duration.ofSeconds(1)); // larger than other's 200 Hz
        }
        QosBroker.Replan r = b.replan(pmu.id(), grow(400), 0, b.topology().link("r1", "r2"), 16).join();
        assertInstanceOf(AdmissionResult.Admitted.class, r.result(),
                "moving 'other' makes room: " + r);
        assertEquals(List.of(other.id()), r.moved());
    }

    /** (4) A restarted broker resumes what a replan with moves recorded. */
    @Test
    void aBrokerResumingTheJournalHasTheSameState() {
        Topology t = topology(240_000, Topology.Builder.defaultShares(), true).build();
        List<StateChange> recorded = new ArrayList<>();
        QosBroker b = new QosBroker(BrokerState.empty(t), new InetSocketAddress("127.0.0.1", 0), c -> {
            recorded.add(c);
            return CompletableFuture.completedFuture(null);
        }, RouterPresence.NONE, e -> { });
        try {
            b.declare("pmu", "r1", 260, 2_500_000, ServiceClass.HRT, "g").join();
            b.declare("other", "r1", 260, 2_500_000, ServiceClass.HRT, "g").join();
            AdmittedSubscription pmu = admit(b, "pmu", "cc", 200, ServiceClass.HRT, Duration.ofMillis(30));
            admit(b, "other", "cc", 200, ServiceClass.HRT, Duration.ofMillis(500));
            admit(b, "other", "cc2", 100, ServiceClass.HRT, Duration.ofMillis(500));
            QosBroker.Replan r = b.replan(pmu.id(), grow(400), 0, t.link("r1", "r2"), 16).join();
            assertInstanceOf(AdmissionResult.Admitted.class, r.result(), r.toString());
            assertEquals(2, r.moved().size());
            List<PublishedVariable> vars = new ArrayList<>();
            Map<Long, AdmittedSubscription> subs = new LinkedHashMap<>();
            long nextSub = 1;
            long nextFlow = 1;
            for (StateChange c : recorded) {
                if (c.variable() != null) {
                    vars.add(c.variable());
                }
                if (c.putSubscription() != null) {
                    subs.put(c.putSubscription().id(), c.putSubscription());
                }
                if (c.removedSubscription() > 0) {
                    subs.remove(c.removedSubscription());
                }
                nextSub = Math.max(nextSub, c.nextSubscriptionId());
                nextFlow = Math.max(nextFlow, c.nextFlowId());
            }
            try (QosBroker again = new QosBroker(new BrokerState(t, vars, new ArrayList<>(subs.values()), 1, nextSub,
                    nextFlow, List.of()), new InetSocketAddress("127.0.0.1", 0), c -> CompletableFuture.completedFuture(null),
                    RouterPresence.NONE, e -> { })) {
                assertEquals(bookkeeping(b), bookkeeping(again));
                assertEquals(flows(b, false), flows(again, false));
                assertEquals(new TreeMap<>(b.subscriptions().stream().collect(java.util.stream.Collectors.toMap(
                        AdmittedSubscription::id, s -> s.request()))), new TreeMap<>(again.subscriptions().stream()
                        .collect(java.util.stream.Collectors.toMap(AdmittedSubscription::id, s -> s.request()))));
            }
        } finally {
            b.close();
        }
    }

    /** The routers' view, changes applied in the order sent. */
    static final class Routers implements FlowInstaller {
        final Map<String, Map<Long, InstallFlow>> held = new TreeMap<>();
        int sent;

        @Override
        public void install(String router, InstallFlow flow) {
            sent++;
            InstallFlow old = held.computeIfAbsent(router, r -> new TreeMap<>()).get(flow.spec().flowId());
            assertTrue(old == null || old.version() < flow.version(), "version goes up at " + router + ": " + flow);
            held.get(router).put(flow.spec().flowId(), flow);
        }

        @Override
        public void remove(String router, long flowId, long version) {
            sent++;
            InstallFlow old = held.getOrDefault(router, Map.of()).get(flowId);
            assertNotNull(old, "removing a flow the router holds: " + router + " " + flowId);
            assertEquals(old.version(), version, "removal names the held version");
            held.get(router).remove(flowId);
        }

        Map<String, List<InstallFlow>> view() {
            Map<String, List<InstallFlow>> out = new TreeMap<>();
            held.forEach((r, m) -> {
                if (!m.isEmpty()) {
                    out.put(r, new ArrayList<>(m.values()));
                }
            });
            return out;
        }
    }

    /** (4) The routers are sent every moved subscription's flows and end with what the planner holds. */
    @Test
    void theRoutersGetTheMovesAndTheGrowth() {
        Routers routers = new Routers();
        QosBroker b = QosBroker.inProcess(topology(240_000, Topology.Builder.defaultShares(), true).build(), routers);
        b.declare("pmu", "r1", 260, 2_500_000, ServiceClass.HRT, "g").join();
        b.declare("other", "r1", 260, 2_500_000, ServiceClass.HRT, "g").join();
        AdmittedSubscription pmu = admit(b, "pmu", "cc", 200, ServiceClass.HRT, Duration.ofMillis(30));
        admit(b, "other", "cc", 200, ServiceClass.HRT, Duration.ofMillis(500));
        admit(b, "other", "cc2", 100, ServiceClass.HRT, Duration.ofMillis(500));
        QosBroker.Replan r = b.replan(pmu.id(), grow(400), 0, b.topology().link("r1", "r2"), 16).join();
        assertInstanceOf(AdmissionResult.Admitted.class, r.result(), r.toString());
        assertEquals(flows(b, true), byRouterAndFlow(routers.view(), true));
        int sent = routers.sent;
        QosBroker.Replan again = b.replan(pmu.id(), grow(400.0001), 0, b.topology().link("r1", "r2"), 16).join();
        assertEquals(sent == routers.sent, again.result() instanceof AdmissionResult.Rejected);
    }

    /**
     * (2) The second moved item cannot be sent (its delivery link name, from a stored state, is too
     * long for an install): the first item's planner change and every admission put back.
     */
    @Test
    void anUnsendableSecondItemPutsTheFirstBackToo() {
        Topology t = topology(240_000, Topology.Builder.defaultShares(), true).build();
        List<AdmittedSubscription> stored;
        List<PublishedVariable> vars;
        try (QosBroker first = QosBroker.inProcess(t, NOTHING)) {
            first.declare("pmu", "r1", 260, 2_500_000, ServiceClass.HRT, "g").join();
            first.declare("a", "r1", 260, 2_500_000, ServiceClass.HRT, "g").join();
            first.declare("b", "r1", 260, 2_500_000, ServiceClass.HRT, "g").join();
            admit(first, "pmu", "cc", 100, ServiceClass.HRT, Duration.ofMillis(30));
            admit(first, "a", "cc", 150, ServiceClass.HRT, Duration.ofMillis(500)); // larger: tried first
            admit(first, "b", "cc3", 100, ServiceClass.HRT, Duration.ofMillis(500));
            vars = first.variables();
            stored = new ArrayList<>();
            String longLink = "x".repeat(2_000);
            for (AdmittedSubscription s : first.subscriptions()) {
                if (s.variableName().equals("b")) {
                    var q = s.request();
                    s = new AdmittedSubscription(new org.gridstat.broker.admission.SubscriptionRequest(q.subscriptionId(),
                            q.variable(), q.publisherRouter(), q.subscriberRouter(), q.frameBytes(), q.qos(), longLink,
                            q.publisherIntervalNanos()), s.variableName(), s.admitted(), s.flowIds());
                }
                stored.add(s);
            }
        }
        QosBroker b = new QosBroker(new BrokerState(t, vars, stored, 1, 10, 1000, List.of()),
                new InetSocketAddress("127.0.0.1", 0), c -> CompletableFuture.completedFuture(null), RouterPresence.NONE,
                e -> { });
        try {
            long pmu = stored.get(0).id();
            Held before = Held.of(b, false);
            try {
                QosBroker.Replan r = b.replan(pmu, grow(350), 0, t.link("r1", "r2"), 16).join();
                fail("expected the unsendable change to be refused: " + r);
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage().contains("cannot be sent"), e.getMessage());
            }
            assertEquals(before, Held.of(b, false));
            drainsToZero(b);
        } finally {
            b.close();
        }
    }
}
