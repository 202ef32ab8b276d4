package org.gridstat.tests;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.gridstat.broker.store.EmbeddedZooKeeper;
import org.gridstat.broker.store.ZooKeeperConnection;
import org.gridstat.broker.store.ZooKeeperStore;
import org.gridstat.client.BrokerConnection;
import org.gridstat.client.BrokerSubscription;
import org.gridstat.client.DeclaredVariable;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
import org.gridstat.client.VariableDeclaration;
import org.gridstat.core.filter.SampleGrid;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.time.SystemClock;
import org.gridstat.node.Distribution;
import org.gridstat.node.EquinoxNode;
import org.gridstat.node.NodeConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two broker replicas as processes on one ZooKeeper, two router nodes and a live 60 Hz stream:
 * killing the leader (SIGKILL) hands leadership to the standby with every subscription intact and
 * the stream uninterrupted; the standby admits new subscriptions, and a restarted router gets its
 * flows back from it.
 */
class BrokerFailoverTest {
    private static final String STATUS_ROUTER = "org.gridstat.statusrouter.api.StatusRouter";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void theStandbyTakesOverWithEverythingInstalledAndKeepsAdmitting() throws Exception {
        Path topology = Files.writeString(dir.resolve("topology.yaml"), String.join("\n",
                "routers:", "  - {id: f-r1, capacity: 100000}", "  - {id: f-r2, capacity: 100000}",
                "links:", "  - {between: [f-r1, f-r2], bandwidth: 12500000, delay: 1ms}", ""));
        List<Long> seqs = new CopyOnWriteArrayList<>();
        EquinoxNode r1 = null;
        EquinoxNode r2 = null;
        AtomicBoolean publishing = new AtomicBoolean(true);
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"), 0);
             BrokerProcess first = BrokerProcess.start(dir, "one", zk.connectString(), topology);
             Subscriber subscriber = Subscriber.open(new InetSocketAddress("127.0.0.1", 0), e -> seqs.add(e.sequence()))) {
            first.awaitRole(true, 30);
            BrokerProcess second = BrokerProcess.start(dir, "two", zk.connectString(), null);
            try {
                second.awaitRole(false, 30);
                String brokers = "127.0.0.1:" + first.controlPort + ",127.0.0.1:" + second.controlPort;
                int p1 = LoopbackPorts.free();
                int p2 = LoopbackPorts.free();
                NodeConfig.StatusRouterSection s1 = router(p1, brokers, "f-r2", p2);
                NodeConfig.StatusRouterSection s2 = router(p2, brokers, "cc", subscriber.localAddress().getPort());
                r1 = EquinoxNode.start(Distribution.bundles(), NodeConfig.of("f-r1", null, s1));
                r2 = EquinoxNode.start(Distribution.bundles(), NodeConfig.of("f-r2", null, s2));
                assertNotNull(r1.awaitService(STATUS_ROUTER, EquinoxNode.TIMEOUT_MILLIS));
                assertNotNull(r2.awaitService(STATUS_ROUTER, EquinoxNode.TIMEOUT_MILLIS));
                BrokerConnection client = BrokerConnection.connect(List.of(second.api(), first.api()),
                        Duration.ofSeconds(10), Duration.ofSeconds(20)); // the standby first: it names the leader
                awaitRouters(client, "routers connect to the leader");
                try (ZooKeeperConnection zc = ZooKeeperConnection.open(zk.connectString(), null, 0, Duration.ofSeconds(5))) {
                    ZooKeeperStore store = new ZooKeeperStore(zc.client(), "/gridstat");
                    Eventually.await(() -> registered(store).equals(List.of("f-r1", "f-r2")),
                            "the leader registers its routers as ephemeral nodes", 10);
                }

                long sixty = SampleGrid.ofRate(60).intervalNanos();
                DeclaredVariable v = client.declare(VariableDeclaration.of("sub1/pmu1/freq", "f-r1", 56,
                        Duration.ofNanos(sixty), ServiceClass.HRT));
                BrokerSubscription sub = client.subscribe(v.name(), "f-r2", "cc", QosSpec.builder().rateHz(60)
                        .latencyBound(Duration.ofMillis(100)).serviceClass(ServiceClass.HRT).build());
                assertEquals(List.of(List.of("f-r1", "f-r2")), sub.paths());
                awaitRouters(client, "flows acknowledged");

                Thread publisher = new Thread(() -> publish(p1, v, publishing), "failover-test-pmu");
                publisher.start();
                Eventually.await(() -> seqs.size() >= 60, "a second of samples before the failover", 20);
                Eventually.await(() -> sentByEveryFlow(client) >= 30, "routers report their flows' statistics to the broker", 20);

                // a request the leader made and answered, whose client did not hear the answer (as if
                // the leader died before it reached the client): sent again with its key to the next leader
                String keyed = "{\"variable\":\"" + v.name() + "\",\"subscriberRouter\":\"f-r2\",\"subscriberLink\":\"cc\","
                        + "\"qos\":{\"rateHz\":20,\"latencyBoundMs\":100,\"paths\":1,\"serviceClass\":\"HRT\"}}";
                BrokerConnection.Answer made = client.request("POST", "/subscriptions", keyed, "failover-test-subscribe-20hz");
                assertEquals(201, made.status(), made.body());

                long killedAt = System.nanoTime();
                first.kill();
                second.awaitRole(true, 30);
                double takeoverSeconds = (System.nanoTime() - killedAt) / 1e9;
                System.out.printf("broker failover: standby leads %.2f s after the leader was killed (session timeout 2 s)%n",
                        takeoverSeconds);

                BrokerConnection.Answer repeated = client.request("POST", "/subscriptions", keyed, "failover-test-subscribe-20hz");
                assertEquals(made.status(), repeated.status(), "the new leader answers the repeat as the first was answered");
                assertEquals(JSON.readTree(made.body()), JSON.readTree(repeated.body()));
                List<BrokerSubscription> after = client.subscriptions();
                assertEquals(2, after.size(), "the repeat made nothing: " + after);
                assertEquals(sub, after.get(0), "the subscription survives with its paths and QoS");
                awaitRouters(client, "routers reconnect to the new leader, resynchronised");
                try (ZooKeeperConnection zc = ZooKeeperConnection.open(zk.connectString(), null, 0, Duration.ofSeconds(5))) {
                    ZooKeeperStore store = new ZooKeeperStore(zc.client(), "/gridstat");
                    Eventually.await(() -> registered(store).equals(List.of("f-r1", "f-r2")),
                            "the new leader registers the routers again", 10);
                }
                int before = seqs.size();
                Eventually.await(() -> seqs.size() >= before + 60, "the stream goes on", 20);

                BrokerSubscription slower = client.subscribe(v.name(), "f-r2", "cc", QosSpec.builder().rateHz(10)
                        .latencyBound(Duration.ofMillis(100)).serviceClass(ServiceClass.HRT).build());
                assertTrue(slower.id() > sub.id(), "the new leader admits, with a fresh id");

                // a restarted router is given its flows again by the new leader
                r2.close();
                r2 = EquinoxNode.start(Distribution.bundles(), NodeConfig.of("f-r2", null, s2));
                assertNotNull(r2.awaitService(STATUS_ROUTER, EquinoxNode.TIMEOUT_MILLIS));
                int restartedAt = seqs.size();
                Eventually.await(() -> seqs.size() >= restartedAt + 60, "delivery resumes after the router restarts", 20);
                publishing.set(false);
                publisher.join(5000);

                Thread.sleep(300);
                long gapsUntilRestart = 0;
                for (int i = 1; i < restartedAt; i++) {
                    gapsUntilRestart += seqs.get(i) - seqs.get(i - 1) - 1;
                }
                assertEquals(0, gapsUntilRestart, "no sample lost across the broker failover");
                assertTrue(takeoverSeconds < 15, "took over in " + takeoverSeconds + " s");
            } finally {
                publishing.set(false);
                second.close();
            }
        } finally {
            if (r1 != null) {
                r1.close();
            }
            if (r2 != null) {
                r2.close();
            }
        }
    }

    /** The fewest events any flow has sent, as the routers last reported to the broker; -1 if one has no report. */
    private static long sentByEveryFlow(BrokerConnection client) {
        try {
            JsonNode flows = JSON.readTree(client.request("GET", "/flows", null).body());
            long least = flows.size() == 2 ? Long.MAX_VALUE : -1;
            for (JsonNode f : flows) {
                JsonNode st = f.get("statistics");
                least = Math.min(least, st == null ? -1 : st.get("eventsSent").asLong());
            }
            return least;
        } catch (Exception e) {
            return -1;
        }
    }

    private static List<String> registered(ZooKeeperStore store) {
        try {
            return store.registeredRouters();
        } catch (Exception e) {
            return List.of();
        }
    }

    private static NodeConfig.StatusRouterSection router(int port, String brokers, String link, int linkPort) {
        NodeConfig.StatusRouterSection s = new NodeConfig.StatusRouterSection();
        s.bind = "127.0.0.1:" + port;
        s.links = List.of(Map.of("name", link, "address", "127.0.0.1:" + linkPort));
        s.broker = brokers;
        return s;
    }

    private static void publish(int port, DeclaredVariable v, AtomicBoolean running) {
        SampleGrid grid = SampleGrid.ofRate(60);
        try (Publisher publisher = Publisher.connect(new InetSocketAddress("127.0.0.1", port))) {
            Publication p = publisher.publication(v.id(), ServiceClass.HRT, Duration.ofMillis(100));
            long t = grid.next(SystemClock.INSTANCE.nanos());
            while (running.get()) {
                long wait = t - SystemClock.INSTANCE.nanos();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                p.publish(50.0, t);
                t = grid.next(t);
            }
        }
    }


    private static void awaitRouters(BrokerConnection client, String what) throws InterruptedException {
        Eventually.await(() -> {
            try {
                JsonNode routers = JSON.readTree(client.request("GET", "/routers", null).body());
                boolean all = true;
                for (JsonNode r : routers) {
                    all &= r.get("connected").asBoolean() && r.get("unacknowledged").asInt() == 0;
                }
                return all;
            } catch (Exception e) {
                return false;
            }
        }, what, 30);
    }
}
