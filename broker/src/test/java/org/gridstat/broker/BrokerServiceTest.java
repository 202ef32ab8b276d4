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

/**
 * The single-machine default: a broker on its embedded ZooKeeper keeps its state across a restart.
 * And the API address a replica advertises as the leader's is one a client can reach.
 */
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

    @Test
    void theAdvertisedApiIsTheBoundAddressUnlessItIsAWildcard() {
        assertEquals("http://127.0.0.1:8470", BrokerService.advertisedApiOf(new InetSocketAddress("127.0.0.1", 8470)));
        assertEquals("http://[0:0:0:0:0:0:0:1]:8470", BrokerService.advertisedApiOf(new InetSocketAddress("::1", 8470)));
        for (String wildcard : List.of("0.0.0.0", "::")) {
            String url = BrokerService.advertisedApiOf(new InetSocketAddress(wildcard, 8470));
            java.net.URI u = java.net.URI.create(url);
            assertEquals(8470, u.getPort(), url);
            assertFalse(u.getHost().equals("0.0.0.0") || u.getHost().startsWith("[0:0:0:0:0:0:0:0") || u.getHost().equals("[::]"),
                    "a wildcard is no address a client can reach: " + url);
        }
        BrokerService.checkAdvertised("http://b1.example:8470");
        BrokerService.checkAdvertised("http://[2001:db8::1]:8470");
        for (String bad : List.of("http://0.0.0.0:8470", "http://[::]:8470", "https://b1:8470", "http://b1",
                "http://b1:8470/api", "b1:8470", "http://b1:84700", "http://b1:65536")) {
            assertThrows(IllegalArgumentException.class, () -> BrokerService.checkAdvertised(bad), bad);
        }
    }

    @Test
    void aStandbyNamesALeaderBoundToAWildcardByAnAddressAClientCanFollow() throws Exception {
        Topology t = Topology.builder().router("a", 1000).router("b", 1000)
                .between("a", "b", 1_250_000, 1_000_000, Topology.Builder.defaultShares()).build();
        try (org.gridstat.broker.store.EmbeddedZooKeeper zk = org.gridstat.broker.store.EmbeddedZooKeeper.start(dir.resolve("zk"), 0)) {
            try (BrokerService leader = BrokerService.start(new BrokerService.Settings("one", zk.connectString(), null, 0,
                    "/gridstat", Duration.ofSeconds(3), new InetSocketAddress("127.0.0.1", 0),
                    new InetSocketAddress("0.0.0.0", 0), t))) {
                awaitLeading(leader);
                try (BrokerService standby = BrokerService.start(new BrokerService.Settings("two", zk.connectString(), null,
                        0, "/gridstat", Duration.ofSeconds(3), new InetSocketAddress("127.0.0.1", 0),
                        new InetSocketAddress("127.0.0.1", 0), null, org.gridstat.broker.control.ControlLimits.DEFAULT,
                        org.gridstat.broker.api.ApiLimits.DEFAULT, "http://127.0.0.1:1"))) {
                    assertFalse(leader.advertisedApi().contains("0.0.0.0"), leader.advertisedApi());
                    assertEquals("http://127.0.0.1:1", standby.advertisedApi(), "given: used as it is");
                    java.net.URI standbyUri = java.net.URI.create("http://127.0.0.1:" + standby.apiAddress().getPort());
                    java.net.http.HttpResponse<String> refused = java.net.http.HttpClient.newHttpClient().send(
                            java.net.http.HttpRequest.newBuilder(standbyUri.resolve("/api/v1/subscriptions")).build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString());
                    assertEquals(503, refused.statusCode());
                    assertTrue(refused.body().contains("\"leader\":\"" + leader.advertisedApi() + "\""), refused.body());
                    // a client given only the standby follows it to the leader
                    org.gridstat.client.BrokerConnection c = org.gridstat.client.BrokerConnection.connect(List.of(standbyUri),
                            Duration.ofSeconds(5), Duration.ofSeconds(5));
                    assertEquals(200, c.request("GET", "/subscriptions", null).status());
                }
            }
        }
    }

    private static void awaitLeading(BrokerService b) throws InterruptedException {
        long end = System.nanoTime() + 20_000_000_000L;
        while (!b.replica().isLeader()) {
            assertTrue(System.nanoTime() < end, "leads within 20 s");
            Thread.sleep(10);
        }
    }
}
