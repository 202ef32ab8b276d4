package org.gridstat.tests;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.catalog.PublishedVariable;
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
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution's conf/ runs the example network as shipped: a broker with the example topology
 * and four router nodes (real Equinox frameworks) from the minimal files r1..r4, which take their
 * out-links from the broker; a subscription at r4's delivery link is delivered end to end over two
 * disjoint paths, and one over a link r4 does not have is refused. Only the ports are moved to free
 * ones, so that the test never meets another process on the shipped ones.
 */
class ShippedExampleNetworkTest {
    private static final String STATUS_ROUTER = "org.gridstat.statusrouter.api.StatusRouter";
    private static final Pattern PORT = Pattern.compile("127\\.0\\.0\\.1:(\\d+)");
    private static final int SHIPPED_CONTROL_PORT = 8471;

    @TempDir
    Path dir;

    @Test
    void theExampleTopologyAndMinimalRouterFilesDeliverASubscription() throws Exception {
        Path conf = Distribution.home().resolve("conf");
        List<String> routers = List.of("r1", "r2", "r3", "r4");
        String topologyText = Files.readString(conf.resolve("topology-example.yaml"));
        Map<String, String> routerTexts = new HashMap<>();
        Set<Integer> shipped = new TreeSet<>(ports(topologyText));
        for (String r : routers) {
            routerTexts.put(r, Files.readString(conf.resolve(r + ".yaml")));
            shipped.addAll(ports(routerTexts.get(r)));
        }
        assertTrue(shipped.contains(SHIPPED_CONTROL_PORT), "the router files name the broker's control port");

        Map<Integer, Integer> moved = new HashMap<>();
        for (int p : shipped) {
            if (p != SHIPPED_CONTROL_PORT) {
                moved.put(p, LoopbackPorts.free());
            }
        }
        Path topologyFile = Files.writeString(dir.resolve("topology.yaml"), move(topologyText, moved));
        List<Long> got = new CopyOnWriteArrayList<>();
        try (QosBroker broker = new QosBroker(Topology.load(topologyFile), new InetSocketAddress("127.0.0.1", 0))) {
            moved.put(SHIPPED_CONTROL_PORT, broker.controlAddress().getPort());
            List<EquinoxNode> nodes = new ArrayList<>();
            try {
                for (String r : routers) {
                    Path file = Files.writeString(dir.resolve(r + ".yaml"), move(routerTexts.get(r), moved));
                    NodeConfig config = NodeConfig.load(file);
                    assertEquals(0, ((String[]) config.configurations().get(NodeConfig.STATUS_ROUTER_PID).get("links")).length,
                            r + "'s file names no links: they come from the broker");
                    nodes.add(EquinoxNode.start(Distribution.bundles(), config));
                }
                for (EquinoxNode n : nodes) {
                    assertNotNull(n.awaitService(STATUS_ROUTER, 60_000), n.inactiveBundles().toString());
                }
                Eventually.await(() -> routers.stream().allMatch(r -> broker.control().inSync(r)),
                        "every router connects and takes its out-links", 60);
                assertEquals(List.of(), broker.control().refusals());

                PublishedVariable v = broker.declare("utilityA/sub1/pmu1/freq", "r1", 56, SampleGrid.ofRate(60).intervalNanos(),
                        ServiceClass.HRT, "").join();
                QosSpec qos = QosSpec.builder().rateHz(60).latencyBound(Duration.ofSeconds(1)).paths(2)
                        .serviceClass(ServiceClass.HRT).build();
                IllegalArgumentException ccx = assertThrows(IllegalArgumentException.class,
                        () -> broker.subscribe(v.name(), "r4", "ccx", qos));
                assertEquals("router r4 has no delivery link 'ccx' (its delivery links: cc)", ccx.getMessage());

                int ccPort = moved.get(9501);
                try (Subscriber subscriber = Subscriber.open(new InetSocketAddress("127.0.0.1", ccPort),
                        e -> got.add(e.sequence()))) {
                    AdmissionResult admitted = broker.subscribe(v.name(), "r4", "cc", qos).join();
                    assertInstanceOf(AdmissionResult.Admitted.class, admitted, admitted.toString());
                    Eventually.await(() -> routers.stream().allMatch(r -> broker.control().inSync(r)),
                            "every router acknowledges its flows", 30);
                    assertEquals(List.of(), broker.control().refusals(), "every router has the links its flows name");

                    SampleGrid grid = SampleGrid.ofRate(60);
                    long t = grid.next(SystemClock.INSTANCE.nanos());
                    try (Publisher publisher = Publisher.connect(new InetSocketAddress("127.0.0.1", moved.get(9470)))) {
                        Publication p = publisher.publication(VariableId.of(v.id()), ServiceClass.HRT, Duration.ofSeconds(5));
                        for (int i = 0; i < 60; i++, t = grid.next(t)) {
                            while (SystemClock.INSTANCE.nanos() < t) { // at the PMU's pace: flows are shaped to their rate
                                Thread.sleep(1);
                            }
                            p.publish(50.0, t);
                        }
                    }
                    Eventually.await(() -> got.size() >= 60, "every sample reaches the control center", 30);
                    assertEquals(60, got.size(), "one copy of each, whichever path brought it first");
                    Eventually.await(() -> subscriber.statistics(VariableId.of(v.id())).duplicatesDiscarded() >= 60,
                            "the second path delivers a copy of each too", 30);
                    assertEquals(60, subscriber.statistics(VariableId.of(v.id())).duplicatesDiscarded());
                }
            } finally {
                for (EquinoxNode n : nodes) {
                    n.close();
                }
            }
        }
    }

    private static Set<Integer> ports(String text) {
        Set<Integer> ports = new TreeSet<>();
        Matcher m = PORT.matcher(text);
        while (m.find()) {
            ports.add(Integer.parseInt(m.group(1)));
        }
        return ports;
    }

    private static String move(String text, Map<Integer, Integer> moved) {
        Matcher m = PORT.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, "127.0.0.1:" + moved.get(Integer.parseInt(m.group(1))));
        }
        return m.appendTail(out).toString();
    }
}
