package org.gridstat.broker;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The single-machine default: a broker on its embedded ZooKeeper keeps its state across a restart. */
class BrokerServiceTest {
    @TempDir
    Path dir;

    private BrokerService start(Topology t) throws InterruptedException {
        BrokerService b = BrokerService.start(new BrokerService.Settings("solo", "", dir.resolve("zk"), 0, "/gridstat",
                Duration.ofSeconds(3), new InetSocketAddress("127.0.0.1", 0), new InetSocketAddress("127.0.0.1", 0), t));
        long end = System.nanoTime() + 20_000_000_000L;
        while (!b.replica().isLeader()) {
            assertTrue(System.nanoTime() < end, "leads within 20 s");
            Thread.sleep(10);
        }
        return b;
    }

    @Test
    void aRestartedBrokerResumesFromItsDataFolder() throws Exception {
        Topology t = Topology.builder().router("a", 1000).router("b", 1000)
                .between("a", "b", 1_250_000, 1_000_000, Topology.Builder.defaultShares()).build();
        List<AdmittedSubscription> before;
        try (BrokerService first = start(t)) {
            QosBroker b = first.replica().leading();
            b.declare("x/y", "a", 100, 20_000_000, ServiceClass.LRT, "g").join();
            AdmissionResult r = b.subscribe("x/y", "b", "cc", QosSpec.builder().rateHz(50)
                    .latencyBound(Duration.ofMillis(20)).serviceClass(ServiceClass.LRT).build()).join();
            assertInstanceOf(AdmissionResult.Admitted.class, r);
            before = b.subscriptions();
        }
        try (BrokerService again = start(null)) { // no topology given: the stored one is used
            QosBroker b = again.replica().leading();
            assertEquals(before, b.subscriptions());
            assertEquals("g", b.variables().get(0).correlationGroup());
            assertEquals(t.toText(), again.replica().topology().toText());
        }
    }
}
