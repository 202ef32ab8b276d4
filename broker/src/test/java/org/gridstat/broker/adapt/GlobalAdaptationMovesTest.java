package org.gridstat.broker.adapt;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.adapt.GlobalAdaptation.Outcome;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.control.RouterPresence;
import org.gridstat.broker.install.FlowInstaller;
import org.gridstat.broker.store.BrokerState;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Global adaptation making room on a congested link: a subscription that can only take the direct
 * link (its 30 ms latency bound) needs more than the link's HRT share has left, and others there
 * could take a long way round (80 ms more). Moves and growth are one step: nothing moves unless
 * the growth is admitted.
 */
class GlobalAdaptationMovesTest {
    private static final long MS = 1_000_000L;
    private static final FlowInstaller NOTHING = NoInstalls.INSTANCE;

    private final ManualClock clock = new ManualClock(0);
    private final List<Runnable> due = new ArrayList<>();
    private final List<Outcome> outcomes = new ArrayList<>();
    private final ArrayDeque<CompletableFuture<Void>> journal = new ArrayDeque<>();
    private QosBroker journaled;

    @AfterEach
    void close() {
        if (journaled != null) {
            journaled.close();
        }
    }

    /** r1 -> r2 direct ({@code direct} B/s, half of it for HRT), and r1 -> r3 -> r2 if {@code wayRound}, 80 ms longer, with room. */
    private static Topology.Builder topology(long direct, boolean wayRound) {
        Topology.Builder b = Topology.builder().router("r1", 10_000_000, MS, "").router("r2", 10_000_000, MS, "")
                .router("r3", 10_000_000, MS, "")
                .link("r1", "r2", direct, MS, Topology.Builder.defaultShares());
        if (wayRound) {
            b.link("r1", "r3", 100_000_000, 40 * MS, Topology.Builder.defaultShares())
                    .link("r3", "r2", 100_000_000, 40 * MS, Topology.Builder.defaultShares());
        }
        return b;
    }

    private static QosBroker broker(Topology t, String... variables) {
        QosBroker b = QosBroker.inProcess(t, NOTHING);
        for (String v : variables) {
            b.declare(v, "r1", 260, 2_500_000, ServiceClass.HRT, "sub1").join();
        }
        return b;
    }

    private static AdmittedSubscription admit(QosBroker broker, String variable, String link, double hz, ServiceClass c,
                                              Duration bound) {
        return admit(broker, variable, link, hz, c, bound, "");
    }

    private static AdmittedSubscription admit(QosBroker broker, String variable, String link, double hz, ServiceClass c,
                                              Duration bound, String group) {
        AdmissionResult r = broker.subscribe(variable, "r2", link, QosSpec.builder().rateHz(hz).latencyBound(bound)
                .serviceClass(c).correlationGroup(group).build()).join();
        assertInstanceOf(AdmissionResult.Admitted.class, r, r.toString());
        return broker.subscription(((AdmissionResult.Admitted) r).subscriptionId());
    }

    private static AdmittedSubscription pmu(QosBroker b, double hz) {
        return admit(b, "pmu", "cc", hz, ServiceClass.HRT, Duration.ofMillis(30));
    }

    private static AdmittedSubscription roundabout(QosBroker b, String variable, String link, double hz, ServiceClass c) {
        return admit(b, variable, link, hz, c, Duration.ofMillis(500));
    }

    /** The pmu's flow at r1 reported short of {@code hz} samples a second; what the broker did. */
    private Outcome pmuShortOf(QosBroker broker, int hz) {
        AdmittedSubscription pmu = broker.subscriptions().stream().filter(s -> s.variableName().equals("pmu")).findFirst()
                .orElseThrow();
        long flow = broker.flows().get("r1").stream().filter(f -> f.variableId() == pmu.request().variable().value())
                .findFirst().orElseThrow().spec().flowId();
        broker.adaptInProcess(Duration.ofMillis(200), (delay, task) -> due.add(task), clock, (router, f) -> true,
                outcomes::add).unmet("r1", flow, hz * 288L);
        List<Runnable> now = List.copyOf(due);
        due.clear();
        now.forEach(Runnable::run);
        assertEquals(1, outcomes.size(), outcomes.toString());
        return outcomes.get(0);
    }

    private static List<String> routers(QosBroker b, AdmittedSubscription s) {
        return b.subscription(s.id()).admitted().paths().get(0).stream().map(AdmissionResult.Hop::router).toList();
    }

    private static final List<String> DIRECT = List.of("r1", "r2");
    private static final List<String> ROUND = List.of("r1", "r3", "r2");

    @Test
    void anotherSubscriptionIsMovedOffTheLinkAndTheShortOneGrownThere() {
        QosBroker b = broker(topology(240_000, true).build(), "pmu", "other", "app");
        pmu(b, 200);
        AdmittedSubscription other = roundabout(b, "other", "cc", 200, ServiceClass.HRT);
        AdmittedSubscription app = roundabout(b, "app", "cc", 20, ServiceClass.BE);
        assertEquals(DIRECT, routers(b, other), "both start on the direct link");
        Outcome o = pmuShortOf(b, 400);
        assertEquals(Outcome.Kind.GROWN, o.kind(), o.toString());
        assertTrue(o.detail().contains("moved off r1->r2: subscription " + other.id()), o.detail());
        assertEquals(400.0, b.subscription(o.subscriptionId()).request().qos().rateHz(), 0.01);
        assertEquals(ROUND, routers(b, other), "moved the long way round, QoS kept");
        assertEquals(200.0, b.subscription(other.id()).request().qos().rateHz(), 0.01);
        assertEquals(DIRECT, routers(b, app), "best effort of its own holds no HRT room: not moved");
    }

    @Test
    void withNoOtherPathNothingMovesAndTheRefusalSaysSo() {
        QosBroker b = broker(topology(240_000, false).build(), "pmu", "other");
        pmu(b, 200);
        AdmittedSubscription other = roundabout(b, "other", "cc", 200, ServiceClass.HRT);
        Outcome o = pmuShortOf(b, 400);
        assertEquals(Outcome.Kind.REFUSED, o.kind(), o.toString());
        assertTrue(o.detail().contains("no move of the subscriptions on r1->r2 to other paths made room"), o.detail());
        assertEquals(200.0, b.subscription(o.subscriptionId()).request().qos().rateHz(), 0.01, "it keeps its reservation");
        assertEquals(DIRECT, routers(b, other));
    }

    @Test
    void subscriptionsOfOneVariableShareTheirFlowAndAreMovedTogether() {
        QosBroker b = broker(topology(240_000, true).build(), "pmu", "other");
        pmu(b, 200);
        AdmittedSubscription first = roundabout(b, "other", "cc", 200, ServiceClass.HRT);
        AdmittedSubscription second = roundabout(b, "other", "cc2", 200, ServiceClass.HRT);
        Outcome o = pmuShortOf(b, 400); // moving one frees nothing: the other still holds the flow
        assertEquals(Outcome.Kind.GROWN, o.kind(), o.toString());
        assertEquals(ROUND, routers(b, first));
        assertEquals(ROUND, routers(b, second));
    }

    @Test
    void aLowerClassSubscriberOfAVariableHoldsItsHrtRoomAndTheVariableMoves() {
        QosBroker b = broker(topology(480_000, true).build(), "pmu", "other");
        pmu(b, 400);
        AdmittedSubscription hrt = roundabout(b, "other", "cc", 10, ServiceClass.HRT);
        AdmittedSubscription be = roundabout(b, "other", "cc2", 300, ServiceClass.BE); // the flow holds 300 Hz of HRT
        Outcome o = pmuShortOf(b, 800);
        assertEquals(Outcome.Kind.GROWN, o.kind(), o.toString());
        assertEquals(ROUND, routers(b, be));
        assertEquals(ROUND, routers(b, hrt), "a variable's subscriptions move together");
    }

    @Test
    void theGrowingOnesCorrelationGroupIsMovedFirst() {
        QosBroker b = broker(topology(240_000, true).build(), "pmu", "elsewhere", "same");
        AdmittedSubscription pmu = admit(b, "pmu", "cc", 200, ServiceClass.HRT, Duration.ofMillis(30), "sub1");
        AdmittedSubscription elsewhere = admit(b, "elsewhere", "cc", 100, ServiceClass.HRT, Duration.ofMillis(500), "sub2");
        AdmittedSubscription same = admit(b, "same", "cc", 100, ServiceClass.HRT, Duration.ofMillis(500), "sub1");
        Outcome o = pmuShortOf(b, 300); // one of the two 100 Hz ones must go
        assertEquals(Outcome.Kind.GROWN, o.kind(), o.toString());
        assertEquals(ROUND, routers(b, same), "the most correlated first, as congestion control takes victims");
        assertEquals(DIRECT, routers(b, elsewhere));
        assertEquals(300.0, b.subscription(pmu.id()).request().qos().rateHz(), 0.01);
    }

    @Test
    void theLargestAreTriedFirstSoFewMoves() {
        QosBroker b = broker(topology(240_000, true).build(), "pmu", "big");
        pmu(b, 100);
        List<AdmittedSubscription> small = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            b.declare("s" + i, "r1", 260, 2_500_000, ServiceClass.HRT, "sub1").join();
            small.add(roundabout(b, "s" + i, "cc", 1, ServiceClass.HRT));
        }
        AdmittedSubscription big = roundabout(b, "big", "cc", 200, ServiceClass.HRT);
        Outcome o = pmuShortOf(b, 300);
        assertEquals(Outcome.Kind.GROWN, o.kind(), o.toString());
        assertEquals(ROUND, routers(b, big));
        assertTrue(small.stream().allMatch(s -> routers(b, s).equals(DIRECT)), "no small one moved");
    }

    @Test
    void whenTheGrowthIsRefusedElsewhereEveryMoveIsUndone() {
        Topology t = topology(240_000, true).router("r5", 10_000_000, MS, "")
                .link("r2", "r5", 240_000, MS, Topology.Builder.defaultShares()).build();
        QosBroker b = QosBroker.inProcess(t, NOTHING);
        for (String v : List.of("pmu", "other")) {
            b.declare(v, "r1", 260, 2_500_000, ServiceClass.HRT, "sub1").join();
        }
        b.declare("blocker", "r2", 260, 2_500_000, ServiceClass.HRT, "sub1").join();
        assertInstanceOf(AdmissionResult.Admitted.class, b.subscribe("pmu", "r5", "cc", QosSpec.builder().rateHz(200)
                .latencyBound(Duration.ofMillis(30)).serviceClass(ServiceClass.HRT).build()).join());
        AdmittedSubscription other = roundabout(b, "other", "cc", 200, ServiceClass.HRT);
        assertInstanceOf(AdmissionResult.Admitted.class, b.subscribe("blocker", "r5", "cc", QosSpec.builder().rateHz(200)
                .latencyBound(Duration.ofMillis(500)).serviceClass(ServiceClass.HRT).build()).join());
        long reservedBefore = b.admission().reserved(t.link("r1", "r2"), ServiceClass.HRT);
        Outcome o = pmuShortOf(b, 400); // r2 -> r5 is full too, and its blocker cannot move
        assertEquals(Outcome.Kind.REFUSED, o.kind(), o.toString());
        assertEquals(DIRECT, routers(b, other), "not left the long way round for nothing");
        assertEquals(reservedBefore, b.admission().reserved(t.link("r1", "r2"), ServiceClass.HRT));
    }

    @Test
    void thousandsOfSubscriptionsThatCannotMoveCostABoundedNumberOfTriesAndChangeNothing() {
        int n = 3_000;
        Topology t = Topology.builder().router("r1", 100_000_000, MS, "").router("r2", 100_000_000, MS, "")
                .link("r1", "r2", 2L * (28_800 + n * 288L + 1_000), MS, Topology.Builder.defaultShares()).build();
        QosBroker b = QosBroker.inProcess(t, NOTHING, false);
        b.declare("pmu", "r1", 260, 2_500_000, ServiceClass.HRT, "sub1").join();
        pmu(b, 100);
        for (int i = 0; i < n; i++) {
            b.declare("s" + i, "r1", 260, 1_000_000_000, ServiceClass.HRT, "sub1").join();
            roundabout(b, "s" + i, "cc", 1, ServiceClass.HRT);
        }
        Link l = t.link("r1", "r2");
        long before = b.admission().reserved(l, ServiceClass.HRT);
        Outcome o = pmuShortOf(b, 400);
        assertEquals(Outcome.Kind.REFUSED, o.kind(), o.toString());
        assertEquals(before, b.admission().reserved(l, ServiceClass.HRT));
        assertEquals(n + 1, b.admission().admittedCount(), "admission and the broker agree");
        assertEquals(n + 1, b.subscriptions().size());
    }

    /** A broker whose journal writes complete when the test says, as ZooKeeper's do later. */
    private QosBroker journaled(Topology t) {
        journaled = new QosBroker(BrokerState.empty(t), new InetSocketAddress("127.0.0.1", 0), c -> {
            CompletableFuture<Void> f = new CompletableFuture<>();
            journal.add(f);
            return f;
        }, RouterPresence.NONE, e -> { });
        return journaled;
    }

    private void writeJournal() {
        while (!journal.isEmpty()) {
            journal.poll().complete(null);
        }
    }

    @Test
    void anOperatorsChangeDuringTheReactionDelayIsKept() {
        QosBroker b = journaled(topology(240_000, true).build());
        for (String v : List.of("pmu", "other")) {
            b.declare(v, "r1", 260, 2_500_000, ServiceClass.HRT, "sub1");
        }
        writeJournal();
        CompletableFuture<AdmissionResult> p = b.subscribe("pmu", "r2", "cc", QosSpec.builder().rateHz(200)
                .latencyBound(Duration.ofMillis(30)).serviceClass(ServiceClass.HRT).build());
        CompletableFuture<AdmissionResult> q = b.subscribe("other", "r2", "cc", QosSpec.builder().rateHz(200)
                .latencyBound(Duration.ofMillis(500)).serviceClass(ServiceClass.HRT).build());
        writeJournal();
        long pmu = ((AdmissionResult.Admitted) p.join()).subscriptionId();
        long flow = b.flows().get("r1").stream().filter(f -> f.variableId() == b.subscription(pmu).request().variable().value())
                .findFirst().orElseThrow().spec().flowId();
        new GlobalAdaptation(b, Duration.ofMillis(200), (delay, task) -> due.add(task), clock, (router, f) -> true,
                outcomes::add).unmet("r1", flow, 400 * 288L);
        CompletableFuture<AdmissionResult> operator = b.modify(pmu, s -> QosSpec.builder().interval(
                Duration.ofNanos(s.intervalNanos())).latencyBound(Duration.ofMillis(20)).serviceClass(s.serviceClass()).build());
        writeJournal();
        assertInstanceOf(AdmissionResult.Admitted.class, operator.join());
        due.forEach(Runnable::run);
        writeJournal();
        assertEquals(Outcome.Kind.GROWN, outcomes.get(0).kind(), outcomes.toString());
        assertEquals(Duration.ofMillis(20), b.subscription(pmu).request().qos().latencyBound(), "the operator's bound kept");
        assertEquals(400.0, b.subscription(pmu).request().qos().rateHz(), 0.01);
        assertEquals(ROUND, b.subscription(((AdmissionResult.Admitted) q.join()).subscriptionId()).admitted().paths().get(0)
                .stream().map(AdmissionResult.Hop::router).toList());
    }
}
