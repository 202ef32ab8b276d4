package org.gridstat.tests;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.SubscriptionRequest;
import org.gridstat.broker.topology.Topology;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
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
 * The management plane drives the data plane: a broker admits a 20 Hz subscription to a 60 Hz
 * variable across two router nodes (real Equinox frameworks), installs its flows over the control
 * channel, and the subscriber receives a third of the samples; unsubscribing stops the stream.
 */
class BrokeredSubscriptionTest {
    private static final String STATUS_ROUTER = "org.gridstat.statusrouter.api.StatusRouter";

    @Test
    void anAdmittedSubscriptionIsInstalledAndDeliveredAtItsRate() throws Exception {
        Topology topology = Topology.builder().router("b-r1", 100_000).router("b-r2", 100_000)
                .between("b-r1", "b-r2", 12_500_000, 1_000_000L, Topology.Builder.defaultShares()).build();
        List<Long> got = new CopyOnWriteArrayList<>();
        try (QosBroker broker = new QosBroker(topology, new InetSocketAddress("127.0.0.1", 0));
             Subscriber subscriber = Subscriber.open(new InetSocketAddress("127.0.0.1", 0), e -> got.add(e.sourceTimeNanos()))) {
            int r1Port = LoopbackPorts.free();
            int r2Port = LoopbackPorts.free();
            String brokerAddress = "127.0.0.1:" + broker.controlAddress().getPort();
            NodeConfig.StatusRouterSection r1 = new NodeConfig.StatusRouterSection();
            r1.bind = "127.0.0.1:" + r1Port;
            r1.links = List.of(Map.of("name", "b-r2", "address", "127.0.0.1:" + r2Port));
            r1.broker = brokerAddress;
            NodeConfig.StatusRouterSection r2 = new NodeConfig.StatusRouterSection();
            r2.bind = "127.0.0.1:" + r2Port;
            r2.links = List.of(Map.of("name", "cc", "address", "127.0.0.1:" + subscriber.localAddress().getPort()));
            r2.broker = brokerAddress;

            EquinoxNode n1 = EquinoxNode.start(Distribution.bundles(), NodeConfig.of("b-r1", null, r1));
            EquinoxNode n2 = null;
            try {
                n2 = EquinoxNode.start(Distribution.bundles(), NodeConfig.of("b-r2", null, r2));
                assertNotNull(n1.awaitService(STATUS_ROUTER, EquinoxNode.TIMEOUT_MILLIS));
                assertNotNull(n2.awaitService(STATUS_ROUTER, EquinoxNode.TIMEOUT_MILLIS));
                Eventually.await(() -> broker.control().connected("b-r1") && broker.control().connected("b-r2"),
                        "routers connect", 15);

                long sixty = SampleGrid.ofRate(60).intervalNanos();
                SubscriptionRequest request = new SubscriptionRequest(1, VariableId.of(33), "b-r1", "b-r2", 56,
                        QosSpec.builder().rateHz(20).latencyBound(Duration.ofMillis(500)).serviceClass(ServiceClass.HRT).build(),
                        "cc", sixty);
                assertInstanceOf(AdmissionResult.Admitted.class, broker.subscribe(request));
                Eventually.await(() -> broker.control().inSync("b-r1") && broker.control().inSync("b-r2"),
                        "both routers acknowledge their flows", 15);
                assertEquals(List.of(), broker.control().refusals());

                SampleGrid grid = SampleGrid.ofRate(60);
                // Start on a 20 Hz point (every third 60 Hz point), so 60 samples span exactly 20 of them.
                long t = SampleGrid.ofRate(20).next(SystemClock.INSTANCE.nanos());
                try (Publisher publisher = Publisher.connect(new InetSocketAddress("127.0.0.1", r1Port))) {
                    Publication p = publisher.publication(VariableId.of(33), ServiceClass.HRT, Duration.ofSeconds(5));
                    for (int i = 0; i < 60; i++, t = grid.next(t)) {
                        p.publish(50.0, t);
                    }
                    Eventually.await(() -> got.size() >= 20, "20 Hz of a 60 Hz stream arrives", 15);
                    Thread.sleep(200);
                    assertEquals(20, got.size(), "exactly a third");
                    SampleGrid twenty = SampleGrid.ofRate(20);
                    for (long ts : got) {
                        assertEquals(ts, twenty.floor(ts), "on the 20 Hz grid");
                    }

                    assertTrue(broker.unsubscribe(1));
                    Eventually.await(() -> broker.control().inSync("b-r1") && broker.control().inSync("b-r2"),
                            "removals acknowledged", 15);
                    got.clear();
                    for (int i = 0; i < 60; i++, t = grid.next(t)) {
                        p.publish(50.0, t);
                    }
                    Thread.sleep(300);
                    assertEquals(0, got.size(), "nothing after unsubscribing");
                }
            } finally {
                if (n2 != null) {
                    n2.close();
                }
                n1.close();
            }
        }
    }
}
