package org.gridstat.tests;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.gridstat.broker.store.EmbeddedZooKeeper;
import org.gridstat.client.BrokerConnection;
import org.gridstat.client.BrokerSubscription;
import org.gridstat.client.DeclaredVariable;
import org.gridstat.client.VariableDeclaration;
import org.gridstat.core.filter.SampleGrid;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.node.Distribution;
import org.gridstat.node.EquinoxNode;
import org.gridstat.node.NodeConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A leader frozen by SIGSTOP keeps its sockets open and its kernel keeps accepting connections,
 * so only heartbeats tell its routers it is gone: they leave it within the heartbeat timeout and
 * take the new leader's flows, while the old leader is still frozen.
 */
class FrozenLeaderTest {
    private static final String STATUS_ROUTER = "org.gridstat.statusrouter.api.StatusRouter";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void routersLeaveAFrozenLeaderForTheNewOneWithinTheHeartbeatTimeout() throws Exception {
        Path topology = Files.writeString(dir.resolve("topology.yaml"), String.join("\n",
                "routers:", "  - {id: z-r1, capacity: 100000}", "  - {id: z-r2, capacity: 100000}",
                "links:", "  - {between: [z-r1, z-r2], bandwidth: 12500000, delay: 1ms}", ""));
        EquinoxNode r1 = null;
        EquinoxNode r2 = null;
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"), 0);
             BrokerProcess first = BrokerProcess.start(dir, "one", zk.connectString(), topology)) {
            BrokerProcess second = null;
            boolean frozen = false;
            try {
                first.awaitRole(true, 30);
                second = BrokerProcess.start(dir, "two", zk.connectString(), null);
                second.awaitRole(false, 30);
                String brokers = "127.0.0.1:" + first.controlPort + ",127.0.0.1:" + second.controlPort;
                int p1 = LoopbackPorts.free();
                int p2 = LoopbackPorts.free();
                r1 = EquinoxNode.start(Distribution.bundles(), NodeConfig.of("z-r1", null, router(p1, brokers, "z-r2", p2)));
                r2 = EquinoxNode.start(Distribution.bundles(), NodeConfig.of("z-r2", null, router(p2, brokers, "cc", 9)));
                assertNotNull(r1.awaitService(STATUS_ROUTER, EquinoxNode.TIMEOUT_MILLIS));
                assertNotNull(r2.awaitService(STATUS_ROUTER, EquinoxNode.TIMEOUT_MILLIS));
                BrokerConnection old = BrokerConnection.connect(List.of(first.api()), Duration.ofSeconds(10), Duration.ZERO);
                DeclaredVariable v = old.declare(VariableDeclaration.of("sub1/pmu1/freq", "z-r1", 56,
                        Duration.ofNanos(SampleGrid.ofRate(60).intervalNanos()), ServiceClass.HRT));
                old.subscribe(v.name(), "z-r2", "cc", hrt(60));
                awaitRouters(old, "the routers hold the first leader's flows", 30);

                long frozenAt = System.nanoTime();
                first.freeze();
                frozen = true;
                second.awaitRole(true, 30);
                double leadsAfter = (System.nanoTime() - frozenAt) / 1e9;
                BrokerConnection now = BrokerConnection.connect(List.of(second.api()), Duration.ofSeconds(10), Duration.ZERO);
                awaitRouters(now, "the routers leave the frozen leader and are resynchronised by the new one", 30);
                double resyncedAfter = (System.nanoTime() - frozenAt) / 1e9;
                BrokerSubscription added = now.subscribe(v.name(), "z-r2", "cc", hrt(10));
                awaitRouters(now, "the new leader's new flows are acknowledged", 30);
                double newFlowsAfter = (System.nanoTime() - frozenAt) / 1e9;
                assertTrue(first.alive());
                assertEquals("T", processState(first.pid()), "the old leader is still frozen");
                assertEquals(2, now.subscriptions().size());
                assertTrue(added.id() > 1);
                System.out.printf("frozen leader: standby leads %.2f s after SIGSTOP; routers resynchronised by it %.2f s"
                        + " after; a new subscription's flows acknowledged %.2f s after (heartbeat 1 s, timeout 3 s,"
                        + " ZooKeeper session timeout 2 s)%n", leadsAfter, resyncedAfter, newFlowsAfter);
                assertTrue(resyncedAfter < 15, "routers moved in " + resyncedAfter + " s");
            } finally {
                if (frozen) {
                    first.thaw();
                }
                if (second != null) {
                    second.close();
                }
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

    private static QosSpec hrt(int hz) {
        return QosSpec.builder().rateHz(hz).latencyBound(Duration.ofMillis(100)).serviceClass(ServiceClass.HRT).build();
    }

    /** The state letter of a process in /proc (T: stopped). */
    private static String processState(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    }

    private static NodeConfig.StatusRouterSection router(int port, String brokers, String link, int linkPort) {
        NodeConfig.StatusRouterSection s = new NodeConfig.StatusRouterSection();
        s.bind = "127.0.0.1:" + port;
        s.links = List.of(Map.of("name", link, "address", "127.0.0.1:" + linkPort));
        s.broker = brokers;
        return s;
    }


    /** Every router connected to the broker {@code client} talks to, with nothing unacknowledged. */
    private static void awaitRouters(BrokerConnection client, String what, int seconds) throws InterruptedException {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
            try {
                JsonNode routers = JSON.readTree(client.request("GET", "/routers", null).body());
                boolean all = routers.size() == 2;
                for (JsonNode r : routers) {
                    all &= r.get("connected").asBoolean() && r.get("unacknowledged").asInt() == 0;
                }
                if (all) {
                    return;
                }
            } catch (Exception e) {
                // not answering yet
            }
            Thread.sleep(20);
        }
        fail(what + " within " + seconds + " s");
    }
}
