package org.gridstat.tests;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.SubscriptionRequest;
import org.gridstat.broker.topology.Topology;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
import org.gridstat.client.SubscriberStatistics;
import org.gridstat.core.filter.SampleGrid;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.time.SystemClock;
import org.gridstat.node.Distribution;
import org.gridstat.node.EquinoxNode;
import org.gridstat.node.NodeConfig;
import org.junit.jupiter.api.Test;

/**
 * A 2-path subscription over a diamond of four router nodes (real Equinox frameworks): stopping a
 * router on one path mid-stream costs the subscriber no sequence number.
 */
class RedundantPathsTest {
    private static final String STATUS_ROUTER = "org.gridstat.statusrouter.api.StatusRouter";
    private static final long MS = 1_000_000L;

    @Test
    void losingARouterOnOneOfTwoPathsLosesNoSample() throws Exception {
        Topology topology = Topology.builder().router("d-r1", 100_000).router("d-r2", 100_000).router("d-r3", 100_000)
                .router("d-r4", 100_000)
                .between("d-r1", "d-r2", 12_500_000, MS, Topology.Builder.defaultShares())
                .between("d-r1", "d-r3", 12_500_000, MS, Topology.Builder.defaultShares())
                .between("d-r2", "d-r4", 12_500_000, MS, Topology.Builder.defaultShares())
                .between("d-r3", "d-r4", 12_500_000, MS, Topology.Builder.defaultShares()).build();
        List<Long> seqs = new CopyOnWriteArrayList<>();
        Map<String, EquinoxNode> nodes = new LinkedHashMap<>();
        try (QosBroker broker = new QosBroker(topology, new InetSocketAddress("127.0.0.1", 0));
             Subscriber subscriber = Subscriber.open(new InetSocketAddress("127.0.0.1", 0), e -> seqs.add(e.sequence()))) {
            Map<String, Integer> ports = new LinkedHashMap<>();
            for (String r : List.of("d-r1", "d-r2", "d-r3", "d-r4")) {
                ports.put(r, LoopbackPorts.free());
            }
            Map<String, List<Map<String, Object>>> links = Map.of(
                    "d-r1", List.of(link("d-r2", ports.get("d-r2")), link("d-r3", ports.get("d-r3"))),
                    "d-r2", List.of(link("d-r4", ports.get("d-r4"))),
                    "d-r3", List.of(link("d-r4", ports.get("d-r4"))),
                    "d-r4", List.of(link("cc", subscriber.localAddress().getPort())));
            for (String r : ports.keySet()) {
                NodeConfig.StatusRouterSection s = new NodeConfig.StatusRouterSection();
                s.bind = "127.0.0.1:" + ports.get(r);
                s.links = links.get(r);
                s.broker = "127.0.0.1:" + broker.controlAddress().getPort();
                nodes.put(r, EquinoxNode.start(Distribution.bundles(), NodeConfig.of(r, null, s)));
            }
            for (EquinoxNode n : nodes.values()) {
                assertNotNull(n.awaitService(STATUS_ROUTER, EquinoxNode.TIMEOUT_MILLIS));
            }
            Eventually.await(() -> ports.keySet().stream().allMatch(broker.control()::connected),
                    "all routers connect", 20);

            long sixty = SampleGrid.ofRate(60).intervalNanos();
            AdmissionResult result = broker.subscribe(new SubscriptionRequest(1, VariableId.of(21), "d-r1", "d-r4", 56,
                    QosSpec.builder().rateHz(60).latencyBound(Duration.ofSeconds(2)).paths(2)
                            .serviceClass(ServiceClass.HRT).build(), "cc", sixty));
            AdmissionResult.Admitted admitted = assertInstanceOf(AdmissionResult.Admitted.class, result);
            assertEquals(2, admitted.paths().size());
            Eventually.await(() -> ports.keySet().stream().allMatch(r -> broker.control().inSync(r)),
                    "flows acknowledged", 20);

            SampleGrid grid = SampleGrid.ofRate(60);
            int samples = 180;
            try (Publisher publisher = Publisher.connect(new InetSocketAddress("127.0.0.1", ports.get("d-r1")))) {
                Publication p = publisher.publication(VariableId.of(21), ServiceClass.HRT, Duration.ofSeconds(2));
                long t = grid.next(SystemClock.INSTANCE.nanos());
                for (int i = 0; i < samples; i++, t = grid.next(t)) {
                    long wait = t - SystemClock.INSTANCE.nanos();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    p.publish(50.0, t);
                    if (i == 60) {
                        nodes.remove("d-r2").close(); // one path's middle router goes away mid-stream
                    }
                }
            }
            Eventually.await(() -> seqs.size() >= samples, "every sample arrives over the surviving path", 20);
            Thread.sleep(200);
            List<Long> expected = new ArrayList<>();
            for (long i = 0; i < samples; i++) {
                expected.add(i);
            }
            assertEquals(expected, seqs, "no sequence missing, none twice");
            SubscriberStatistics st = subscriber.statistics();
            assertEquals(0, st.gaps());
            assertEquals(samples, st.delivered());
        } finally {
            for (EquinoxNode n : nodes.values()) {
                n.close();
            }
        }
    }

    private static Map<String, Object> link(String name, int port) {
        return Map.of("name", name, "address", "127.0.0.1:" + port);
    }
}
