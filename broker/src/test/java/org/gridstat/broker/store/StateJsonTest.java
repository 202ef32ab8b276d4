package org.gridstat.broker.store;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.admission.AdmissionController;
import org.gridstat.broker.admission.AdmissionResult.Admitted;
import org.gridstat.broker.admission.AdmissionResult.Hop;
import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.admission.SubscriptionRequest;
import org.gridstat.broker.control.RouterPresence;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.control.ControlMessage.InstallFlow;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.junit.jupiter.api.Test;

class StateJsonTest {
    private static final long MS = 1_000_000L;

    /**
     * a -> b -> c: a 100-byte frame is 128 bytes on the wire; a->b takes it in
     * 1 ms + 128 B / 1,250,000 B/s = 1,000,000 + 102,400 ns, and b->c in
     * 2 ms + 128 B / 1,000,000 B/s = 2,000,000 + 128,000 ns. A hop's rest counts its own link:
     * a's is 1,102,400 + 2,128,000 = 3,230,400 ns, b's 2,128,000 ns, c's (delivery) none.
     */
    private static final Topology T = Topology.builder().router("a", 1000).router("b", 1000).router("c", 1000)
            .between("a", "b", 1_250_000, MS, Topology.Builder.defaultShares())
            .between("b", "c", 1_000_000, 2 * MS, Topology.Builder.defaultShares()).build();
    private static final long A_B = 1_102_400L;
    private static final long B_C = 2_128_000L;

    private static AdmittedSubscription admitted(long afterRest) {
        SubscriptionRequest r = new SubscriptionRequest(1, VariableId.of(5), "a", "c", 100, QosSpec.builder().rateHz(50)
                .latencyBound(Duration.ofMillis(20)).serviceClass(ServiceClass.HRT).build(), "cc", 20_000_000);
        Admitted a = ((Admitted) new AdmissionController(T).admit(r)).followedBy(0, afterRest);
        return new AdmittedSubscription(r, "x/y", a, List.of(1L, 2L, 3L));
    }

    private static Map<String, Long> restByRouter(QosBroker b) {
        return b.flows().entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                e -> e.getValue().stream().mapToLong(InstallFlow::minRestDelayNanos).sum()));
    }

    @Test
    void restDelaysAreStoredWithTheHops() {
        AdmittedSubscription s = admitted(MS);
        AdmittedSubscription back = StateJson.decodeSubscription(StateJson.encode(s));
        assertEquals(s, back);
        assertEquals(List.of(A_B + B_C + MS, B_C + MS, MS), back.admitted().paths().get(0).stream().map(Hop::minRestDelayNanos).toList());
        assertEquals(MS, back.minRestAfterNanos());
    }

    @Test
    void aSubscriptionStoredWithoutRestDelaysResumesWithThemComputedFromTheTopology() {
        String json = new String(StateJson.encode(admitted(0)), StandardCharsets.UTF_8);
        String old = json.replaceAll(",\"minRestDelayNanos\":\\d+", "");
        assertFalse(old.contains("minRestDelayNanos"), old);
        AdmittedSubscription stored = StateJson.decodeSubscription(old.getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of(0L, 0L, 0L), stored.admitted().paths().get(0).stream().map(Hop::minRestDelayNanos).toList());

        try (QosBroker b = new QosBroker(new BrokerState(T, List.of(), List.of(stored), 1),
                new InetSocketAddress("127.0.0.1", 0), StateJournal.MEMORY_ONLY, RouterPresence.NONE, e -> { })) {
            assertEquals(Map.of("a", A_B + B_C, "b", B_C, "c", 0L), restByRouter(b));
            assertEquals(admitted(0), b.subscription(1), "as if admitted now");
        }
    }

    @Test
    void aSegmentKeepsWhatFollowsItAcrossAResumeAndAModification() {
        try (QosBroker b = new QosBroker(new BrokerState(T, List.of(), List.of(admitted(3 * MS)), 1),
                new InetSocketAddress("127.0.0.1", 0), StateJournal.MEMORY_ONLY, RouterPresence.NONE, e -> { })) {
            assertEquals(Map.of("a", A_B + B_C + 3 * MS, "b", B_C + 3 * MS, "c", 3 * MS), restByRouter(b));
            assertInstanceOf(Admitted.class, b.modify(1, QosSpec.builder().rateHz(25).latencyBound(Duration.ofMillis(30))
                    .serviceClass(ServiceClass.HRT).build()).join());
            assertEquals(Map.of("a", A_B + B_C + 3 * MS, "b", B_C + 3 * MS, "c", 3 * MS), restByRouter(b));
            assertEquals(3 * MS, b.subscription(1).minRestAfterNanos());
        }
    }
}
