package org.gridstat.tests;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import org.gridstat.broker.BrokerService;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.hierarchy.CrossCloudSubscription;
import org.gridstat.broker.hierarchy.ParentService;
import org.gridstat.client.BrokerSubscription;
import org.gridstat.broker.store.EmbeddedZooKeeper;
import org.gridstat.broker.topology.Topology;
import org.gridstat.client.BrokerConnection;
import org.gridstat.client.DeclaredVariable;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
import org.gridstat.client.SubscriptionRejectedException;
import org.gridstat.client.VariableDeclaration;
import org.gridstat.core.filter.SampleGrid;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.time.SystemClock;
import org.gridstat.node.Distribution;
import org.gridstat.node.EquinoxNode;
import org.gridstat.node.NodeConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two clouds, each with a leaf broker (state in one ZooKeeper, separate roots) and two router
 * nodes, joined by a border link w2-e1 that the parent broker governs: a subscription from a
 * publisher in the west to a subscriber in the east is admitted in parts and delivered.
 */
class CrossCloudSubscriptionTest {
    private static final String STATUS_ROUTER = "org.gridstat.statusrouter.api.StatusRouter";
    private static final long MS = 1_000_000L;
    /** (56 + 28) bytes at 60 Hz. */
    private static final long STREAM = 84 * 60;

    @TempDir
    Path dir;

    private static Topology cloud(String name, String a, String b) {
        return Topology.builder().router(a, 100_000, MS, name).router(b, 100_000, MS, name)
                .between(a, b, 12_500_000, MS, Topology.Builder.defaultShares()).build();
    }

    @Test
    void aSubscriptionAcrossCloudsIsAdmittedInPartsAndDelivered() throws Exception {
        // the border link's HRT share holds exactly one 60 Hz stream of this variable
        Topology borders = Topology.builder().router("w2", 100_000, MS, "west").router("e1", 100_000, MS, "east")
                .between("w2", "e1", 2 * STREAM, 2 * MS, Topology.Builder.defaultShares()).build();
        List<Long> seqs = new CopyOnWriteArrayList<>();
        Map<String, EquinoxNode> nodes = new LinkedHashMap<>();
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"), 0);
             BrokerService west = leaf(zk, "west", cloud("west", "w1", "w2"));
             BrokerService east = leaf(zk, "east", cloud("east", "e1", "e2"));
             Subscriber subscriber = Subscriber.open(new InetSocketAddress("127.0.0.1", 0), e -> seqs.add(e.sequence()))) {
            Map<String, Integer> ports = new LinkedHashMap<>();
            for (String r : List.of("w1", "w2", "e1", "e2")) {
                ports.put(r, LoopbackPorts.free());
            }
            Map<String, List<String[]>> links = Map.of("w1", List.<String[]>of(new String[] {"w2", "" + ports.get("w2")}),
                    "w2", List.<String[]>of(new String[] {"e1", "" + ports.get("e1")}),
                    "e1", List.<String[]>of(new String[] {"e2", "" + ports.get("e2")}),
                    "e2", List.<String[]>of(new String[] {"cc", "" + subscriber.localAddress().getPort()}));
            for (String r : ports.keySet()) {
                QosBroker leader = (r.startsWith("w") ? west : east).replica().leading();
                NodeConfig.StatusRouterSection s = new NodeConfig.StatusRouterSection();
                s.bind = "127.0.0.1:" + ports.get(r);
                List<Map<String, Object>> l = new ArrayList<>();
                for (String[] link : links.get(r)) {
                    l.add(Map.of("name", link[0], "address", "127.0.0.1:" + link[1]));
                }
                s.links = l;
                s.broker = "127.0.0.1:" + leader.controlAddress().getPort();
                nodes.put(r, EquinoxNode.start(Distribution.bundles(), NodeConfig.of(r, null, s)));
            }
            for (EquinoxNode n : nodes.values()) {
                assertNotNull(n.awaitService(STATUS_ROUTER, EquinoxNode.TIMEOUT_MILLIS));
            }
            QosBroker w = west.replica().leading();
            QosBroker e = east.replica().leading();
            Eventually.await(() -> w.control().connected("w1") && w.control().connected("w2")
                    && e.control().connected("e1") && e.control().connected("e2"), "routers connect to their leaf", 20);

            Map<String, BrokerConnection> leaves = Map.of("west", api(west), "east", api(east));
            ParentService.Settings settings = new ParentService.Settings(borders, Map.of("west", List.of(uri(west)),
                    "east", List.of(uri(east))), zk.connectString(), null, 0, "/parent", new InetSocketAddress("127.0.0.1", 0));
            ParentService service = ParentService.start(settings);
            long sixty = SampleGrid.ofRate(60).intervalNanos();
            DeclaredVariable v = leaves.get("west").declare(VariableDeclaration.of("west/sub1/pmu1/freq", "w1", 56,
                    Duration.ofNanos(sixty), ServiceClass.HRT));
            QosSpec qos = QosSpec.builder().rateHz(60).latencyBound(Duration.ofMillis(100)).serviceClass(ServiceClass.HRT).build();
            BrokerConnection parentApi = BrokerConnection.connect(URI.create("http://127.0.0.1:" + service.apiAddress().getPort()));
            BrokerSubscription admitted = parentApi.subscribe(v.name(), "e2", "cc", qos);
            assertEquals(List.of(List.of("w1", "w2", "e1", "e2")), admitted.paths(), "one path across both clouds");
            CrossCloudSubscription s = service.parent().subscriptions().get(0);
            assertEquals(List.of("w2->e1"), s.borderLinks());
            assertEquals(List.of("west", "east"), s.segments().stream().map(CrossCloudSubscription.Segment::cloud).toList());
            assertEquals(49 * MS, s.segments().get(0).boundNanos(), "(100 ms - 2 ms of border link) / 2 clouds");
            assertEquals(STREAM, service.parent().reserved("w2", "e1", ServiceClass.HRT));
            assertEquals(v.id(), leaves.get("east").variables().get(0).id(), "relayed under the same id");
            List<AdmissionResult.Hop> westHops = west.replica().leading().subscriptions().get(0).admitted().paths().get(0);
            assertEquals(51 * MS, westHops.get(westHops.size() - 1).downstreamBudgetNanos(),
                    "w2's hop deadline leaves the border link (2 ms) and the east's share (49 ms)");
            List<AdmissionResult.Hop> eastHops = east.replica().leading().subscriptions().get(0).admitted().paths().get(0);
            assertEquals(0, eastHops.get(eastHops.size() - 1).downstreamBudgetNanos());
            // the border link takes an 84-byte packet in 2 ms + 84 B / 10,080 B/s = 2,000,000 + 8,333,333 ns: every
            // west hop has it still to cross, w2 included; a hop's rest also counts its own link, and w1->w2 and
            // e1->e2 take it in 1 ms + 84 B / 12,500,000 B/s = 1,000,000 + 6,720 ns: w1 has 1,006,720 + 10,333,333
            // = 11,340,053 ns, e1 1,006,720 ns; nothing the parent knows follows the east's segment
            assertEquals(List.of(1_006_720L + 10_333_333L, 10_333_333L),
                    westHops.stream().map(AdmissionResult.Hop::minRestDelayNanos).toList());
            assertEquals(List.of(1_006_720L, 0L), eastHops.stream().map(AdmissionResult.Hop::minRestDelayNanos).toList());

            // a restarted parent resumes its subscriptions and border reservations from ZooKeeper
            service.close();
            service = ParentService.start(settings);
            parentApi = BrokerConnection.connect(URI.create("http://127.0.0.1:" + service.apiAddress().getPort()));
            assertEquals(List.of(admitted), parentApi.subscriptions());
            assertEquals(STREAM, service.parent().reserved("w2", "e1", ServiceClass.HRT));

            // a second 60 Hz stream of another variable does not fit the border link: refused, nothing left behind
            DeclaredVariable other = leaves.get("west").declare(VariableDeclaration.of("west/sub1/pmu2/freq", "w1", 56,
                    Duration.ofNanos(sixty), ServiceClass.HRT));
            BrokerConnection p = parentApi;
            SubscriptionRejectedException full = assertThrows(SubscriptionRejectedException.class,
                    () -> p.subscribe(other.name(), "e2", "cc", qos));
            assertTrue(full.reason().startsWith("border west -> east: link w2->e1 class HRT"), full.reason());
            assertEquals(1, leaves.get("west").subscriptions().size(), "the failed attempt left no segment behind");

            Eventually.await(() -> List.of("w1", "w2").stream().allMatch(r -> w.control().inSync(r))
                    && List.of("e1", "e2").stream().allMatch(r -> e.control().inSync(r)), "flows acknowledged", 20);
            publish(ports.get("w1"), v.id(), 120);
            Eventually.await(() -> seqs.size() >= 120, "every sample crosses both clouds", 20);
            Thread.sleep(200);
            List<Long> expected = new ArrayList<>();
            for (long i = 0; i < 120; i++) {
                expected.add(i);
            }
            assertEquals(expected, seqs);

            assertTrue(parentApi.unsubscribe(admitted.id()));
            assertEquals(0, service.parent().reserved("w2", "e1", ServiceClass.HRT));
            service.close();
            assertTrue(leaves.get("west").subscriptions().isEmpty());
            assertTrue(leaves.get("east").subscriptions().isEmpty());
        } finally {
            for (EquinoxNode n : nodes.values()) {
                n.close();
            }
        }
    }

    private BrokerService leaf(EmbeddedZooKeeper zk, String cloud, Topology t) throws InterruptedException {
        BrokerService b = BrokerService.start(new BrokerService.Settings(cloud, zk.connectString(), null, 0, "/" + cloud,
                Duration.ofSeconds(3), new InetSocketAddress("127.0.0.1", 0), new InetSocketAddress("127.0.0.1", 0), t));
        Eventually.await(() -> b.replica().isLeader(), cloud + " leaf leads", 20);
        return b;
    }

    private static URI uri(BrokerService b) {
        return URI.create("http://127.0.0.1:" + b.apiAddress().getPort());
    }

    private static BrokerConnection api(BrokerService b) {
        return BrokerConnection.connect(uri(b));
    }

    private static void publish(int port, VariableId id, int samples) {
        SampleGrid grid = SampleGrid.ofRate(60);
        try (Publisher publisher = Publisher.connect(new InetSocketAddress("127.0.0.1", port))) {
            Publication p = publisher.publication(id, ServiceClass.HRT, Duration.ofMillis(100));
            long t = grid.next(SystemClock.INSTANCE.nanos());
            for (int i = 0; i < samples; i++, t = grid.next(t)) {
                long wait = t - SystemClock.INSTANCE.nanos();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                p.publish(50.0, t);
            }
        }
    }
}
