package org.gridstat.broker;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.control.RouterPresence;
import org.gridstat.broker.store.BrokerState;
import org.gridstat.broker.store.StateChange;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.control.ControlMessage.InstallFlow;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A change whose flows the control channel cannot carry is refused before it is recorded, and
 * leaves flows, flow ids and reservations as they were: otherwise every broker resuming the state
 * would fail to resynchronise the router it names.
 */
class UnsendableChangeTest {
    private static final long MS = 1_000_000L;
    private final List<StateChange> recorded = new ArrayList<>();
    private QosBroker broker;

    @BeforeEach
    void start() {
        Topology t = Topology.builder().router("a", 1_000_000).router("b", 1_000_000).router("c", 1_000_000)
                .between("a", "b", 125_000_000, MS, Topology.Builder.defaultShares())
                .between("b", "c", 125_000_000, MS, Topology.Builder.defaultShares()).build();
        broker = new QosBroker(BrokerState.empty(t), new InetSocketAddress("127.0.0.1", 0), change -> {
            recorded.add(change);
            return CompletableFuture.completedFuture(null);
        }, RouterPresence.NONE, e -> { });
        broker.declare("s1/pmu1/freq", "a", 260, MS, ServiceClass.HRT, "").join(); // published at 1 kHz
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    private static QosSpec every(long intervalNanos) {
        return QosSpec.builder().interval(Duration.ofNanos(intervalNanos)).latencyBound(Duration.ofMillis(50))
                .serviceClass(ServiceClass.HRT).build();
    }

    private Map<String, Long> reservations() {
        Map<String, Long> out = new TreeMap<>();
        for (Link l : broker.topology().links()) {
            for (ServiceClass c : ServiceClass.values()) {
                out.put(l.name() + " " + c, broker.admission().reserved(l, c));
            }
        }
        return out;
    }

    /** Every flow without its version: what the routers hold, ids included. */
    private Map<String, List<InstallFlow>> flows() {
        Map<String, List<InstallFlow>> out = new TreeMap<>();
        broker.flows().forEach((r, l) -> out.put(r, l.stream().map(f -> f.withVersion(0))
                .sorted(java.util.Comparator.comparingLong(f -> f.spec().flowId())).toList()));
        return out;
    }

    @Test
    void aLinkNameTheControlChannelCannotCarryIsRefusedBeforeAnythingIsRecorded() {
        assertInstanceOf(AdmissionResult.Admitted.class, broker.subscribe("s1/pmu1/freq", "c", "cc", every(20 * MS)).join());
        int before = recorded.size();
        Map<String, Long> reserved = reservations();
        Map<String, List<InstallFlow>> flows = flows();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> broker.subscribe("s1/pmu1/freq", "c", "x".repeat(10_000), every(20 * MS)));
        assertTrue(e.getMessage().startsWith("the flow for router c over 'xxx"), e.getMessage());
        assertTrue(e.getMessage().contains("cannot be sent to it"), e.getMessage());
        assertEquals(before, recorded.size(), "nothing recorded");
        assertEquals(reserved, reservations(), "nothing reserved");
        assertEquals(flows, flows(), "no flow planned");
        assertEquals(1, broker.subscriptions().size());
    }

    @Test
    void aModificationGatheringMoreRatesThanAFlowCarriesLeavesEverythingAsItWas() {
        // 64 distinct intervals on the flows a->b, b->c and c's delivery link: as many as an install carries
        for (int i = 0; i < 64; i++) {
            AdmissionResult r = broker.subscribe("s1/pmu1/freq", "c", "cc", every((10 + i) * MS)).join();
            assertInstanceOf(AdmissionResult.Admitted.class, r, r.toString());
        }
        assertInstanceOf(AdmissionResult.Admitted.class, broker.subscribe("s1/pmu1/freq", "c", "cc", every(10 * MS)).join(),
                "a second subscription at an interval carried already");
        int before = recorded.size();
        Map<String, Long> reserved = reservations();
        Map<String, List<InstallFlow>> flows = flows();
        List<?> subscriptions = broker.subscriptions();
        try {
            AdmissionResult r = broker.modify(65, every(200 * MS)).join(); // a 65th interval
            assertInstanceOf(AdmissionResult.Rejected.class, r, "refused, if not as unsendable then by admission");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().contains("cannot be sent to it"), e.getMessage());
        }
        try {
            AdmissionResult r = broker.subscribe("s1/pmu1/freq", "c", "cc", every(300 * MS)).join();
            assertInstanceOf(AdmissionResult.Rejected.class, r);
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().contains("cannot be sent to it"), e.getMessage());
        }
        assertEquals(before, recorded.size(), "nothing recorded");
        assertEquals(reserved, reservations(), "reservations as they were");
        assertEquals(flows, flows(), "flows and their ids as the routers hold them");
        assertEquals(subscriptions, broker.subscriptions());
        assertInstanceOf(AdmissionResult.Admitted.class, broker.modify(65, every(11 * MS)).join(),
                "a modification among the intervals already carried is made");
    }
}
