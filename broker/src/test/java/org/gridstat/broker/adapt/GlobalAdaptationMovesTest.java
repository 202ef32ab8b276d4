package org.gridstat.broker.adapt;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.adapt.GlobalAdaptation.Outcome;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.install.FlowInstaller;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.time.ManualClock;
import org.junit.jupiter.api.Test;

/**
 * Global adaptation making room on a congested link: an HRT subscription that can only take the
 * direct link (its latency bound) needs more than the link's HRT share has left, and another HRT
 * subscription there could take a long way round.
 */
class GlobalAdaptationMovesTest {
    private static final long MS = 1_000_000L;

    private final ManualClock clock = new ManualClock(0);
    private final List<Runnable> due = new ArrayList<>();
    private final List<Outcome> outcomes = new ArrayList<>();

    /** r1 -> r2 direct (240,000 B/s: 120,000 for HRT), and r1 -> r3 -> r2, 80 ms longer, with room. */
    private QosBroker broker(boolean wayRound) {
        Topology.Builder b = Topology.builder().router("r1", 1_000_000, MS, "").router("r2", 1_000_000, MS, "")
                .router("r3", 1_000_000, MS, "")
                .link("r1", "r2", 240_000, MS, Topology.Builder.defaultShares());
        if (wayRound) {
            b.link("r1", "r3", 1_000_000, 40 * MS, Topology.Builder.defaultShares())
                    .link("r3", "r2", 1_000_000, 40 * MS, Topology.Builder.defaultShares());
        }
        QosBroker broker = QosBroker.inProcess(b.build(), new FlowInstaller() {
            @Override
            public void install(String router, ControlMessage.InstallFlow flow) {
            }

            @Override
            public void remove(String router, long flowId, long version) {
            }
        });
        broker.declare("pmu", "r1", 260, 2_500_000, ServiceClass.HRT, "sub1").join();
        broker.declare("other", "r1", 260, 2_500_000, ServiceClass.HRT, "sub2").join();
        broker.declare("app", "r1", 260, 2_500_000, ServiceClass.BE, "sub1").join();
        admit(broker, "pmu", 200, ServiceClass.HRT, Duration.ofMillis(30));
        admit(broker, "other", 200, ServiceClass.HRT, Duration.ofMillis(500));
        admit(broker, "app", 100, ServiceClass.BE, Duration.ofSeconds(1));
        return broker;
    }

    private static void admit(QosBroker broker, String variable, double hz, ServiceClass c, Duration bound) {
        AdmissionResult r = broker.subscribe(variable, "r2", "cc", QosSpec.builder().rateHz(hz).latencyBound(bound)
                .serviceClass(c).build()).join();
        assertInstanceOf(AdmissionResult.Admitted.class, r, r.toString());
    }

    private GlobalAdaptation adapt(QosBroker broker) {
        return broker.adaptInProcess(Duration.ofMillis(200), (delay, task) -> due.add(task), clock, (router, flow) -> true,
                outcomes::add);
    }

    /** The pmu's flow at r1 reported short of {@code hz} samples a second; what the broker did. */
    private Outcome pmuShortOf(QosBroker broker, int hz) {
        AdmittedSubscription pmu = named(broker, "pmu");
        adapt(broker).unmet("r1", flowOf(broker, "r1", ServiceClass.HRT, pmu.request().variable().value()), hz * 288L);
        due.forEach(Runnable::run);
        assertEquals(1, outcomes.size(), outcomes.toString());
        return outcomes.get(0);
    }

    private static long flowOf(QosBroker broker, String router, ServiceClass c, long variableId) {
        return broker.flows().get(router).stream().filter(f -> f.spec().serviceClass() == c && f.variableId() == variableId)
                .findFirst().orElseThrow().spec().flowId();
    }

    private static AdmittedSubscription named(QosBroker broker, String variable) {
        return broker.subscriptions().stream().filter(s -> s.variableName().equals(variable)).findFirst().orElseThrow();
    }

    private static List<String> routers(AdmittedSubscription s) {
        return s.admitted().paths().get(0).stream().map(AdmissionResult.Hop::router).toList();
    }

    @Test
    void anotherHrtSubscriptionIsMovedOffTheLinkAndTheShortOneGrownThere() {
        QosBroker broker = broker(true);
        assertEquals(List.of("r1", "r2"), routers(named(broker, "other")), "both start on the direct link");
        Outcome o = pmuShortOf(broker, 400);
        assertEquals(Outcome.Kind.GROWN, o.kind(), o.toString());
        assertTrue(o.detail().contains("moved off r1->r2: subscription " + named(broker, "other").id()), o.detail());
        assertEquals(400.0, named(broker, "pmu").request().qos().rateHz(), 0.01);
        assertEquals(List.of("r1", "r2"), routers(named(broker, "pmu")), "grown where its bound lets it be");
        assertEquals(List.of("r1", "r3", "r2"), routers(named(broker, "other")), "moved the long way round, QoS kept");
        assertEquals(200.0, named(broker, "other").request().qos().rateHz(), 0.01);
        assertEquals(List.of("r1", "r2"), routers(named(broker, "app")), "best effort holds no HRT room: not moved");
    }

    @Test
    void withNoOtherPathNothingMovesAndTheRefusalSaysSo() {
        QosBroker broker = broker(false);
        Outcome o = pmuShortOf(broker, 400);
        assertEquals(Outcome.Kind.REFUSED, o.kind(), o.toString());
        assertTrue(o.detail().contains("no subscription on r1->r2 could move to another path"), o.detail());
        assertEquals(200.0, named(broker, "pmu").request().qos().rateHz(), 0.01, "it keeps its reservation");
        assertEquals(List.of("r1", "r2"), routers(named(broker, "other")));
    }

    @Test
    void whenTheOthersOfItsClassHoldTooLittleNothingIsMoved() {
        QosBroker broker = broker(true);
        Outcome o = pmuShortOf(broker, 800);
        assertEquals(Outcome.Kind.REFUSED, o.kind(), o.toString());
        assertTrue(o.detail().contains("moving them cannot make room"), o.detail());
        assertEquals(List.of("r1", "r2"), routers(named(broker, "other")), "not moved for nothing");
    }
}
