package org.gridstat.node.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.gridstat.broker.BrokerService;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.topology.Topology;
import org.gridstat.client.BrokerConnection;
import org.gridstat.client.BrokerSubscription;
import org.gridstat.client.DeclaredVariable;
import org.gridstat.client.Publisher;
import org.gridstat.client.SubscriptionRejectedException;
import org.gridstat.client.VariableDeclaration;
import org.gridstat.client.Subscriber;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.model.VariableName;
import org.gridstat.core.time.SystemClock;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.node.FreeUdpPorts;
import org.gridstat.node.EquinoxNode;
import org.gridstat.node.NodeConfig;

/**
 * The demo: an embedded ZooKeeper and a QoS broker; four router nodes, each in its own Equinox
 * framework, in a diamond (r1 to r2 and r3, both to r4); a synthetic PMU publishing at r1 and a
 * subscriber behind r4. The PMU's variable is declared to the broker and subscribed with two
 * node-disjoint paths through the client API; the received rate and latency are printed each
 * second, then the subscription's and the routers' statistics.
 */
public final class DemoRun {
    static final VariableName VARIABLE = VariableName.of("utilityA/sub1/pmu1/freq");
    /** Carries the warm-up burst over static flows along both paths; the monitor ignores it. */
    static final VariableId WARMUP_ID = VariableId.of(1L << 40);
    private static final long WARMUP_FLOW_IDS = 1L << 40;
    private static final int WARMUP_EVENTS = 20_000;
    static final String STATUS_ROUTER_SERVICE = "org.gridstat.statusrouter.api.StatusRouter";
    private static final List<String> ROUTERS = List.of("r1", "r2", "r3", "r4");
    /** Each router's out-links by the next router's name; r4's "cc" leads to the subscriber. */
    private static final Map<String, List<String>> NEXT = Map.of("r1", List.of("r2", "r3"), "r2", List.of("r4"),
            "r3", List.of("r4"), "r4", List.of("cc"));

    private final Path bundles;
    private final int subscriberPort;
    private final int apiPort;
    private final double rateHz;
    private final int seconds;
    private final PrintStream out;

    public DemoRun(Path bundles, int subscriberPort, int apiPort, double rateHz, int seconds, PrintStream out) {
        this.bundles = bundles;
        this.subscriberPort = subscriberPort;
        this.apiPort = apiPort;
        this.rateHz = rateHz;
        this.seconds = seconds;
        this.out = out;
    }

    /** The demo network: 100 Mbit/s links with 1 ms of propagation delay. */
    static Topology topology() {
        Topology.Builder b = Topology.builder();
        ROUTERS.forEach(r -> b.router(r, 200_000));
        for (String from : List.of("r1", "r2", "r3")) {
            for (String to : NEXT.get(from)) {
                b.between(from, to, 12_500_000, 1_000_000, Topology.Builder.defaultShares());
            }
        }
        return b.build();
    }

    /** Runs the demo; returns the process exit code: 0 if every sample sent arrived. */
    public int run() throws Exception {
        Path zkData = Files.createTempDirectory("gridstat-demo-zookeeper");
        Map<String, EquinoxNode> nodes = new LinkedHashMap<>();
        try (BrokerService broker = BrokerService.start(new BrokerService.Settings("demo-broker", "", zkData, 0,
                "/gridstat-demo", Duration.ofSeconds(3), new InetSocketAddress("127.0.0.1", 0),
                new InetSocketAddress("127.0.0.1", apiPort), topology()))) {
            try {
                return run(broker, nodes);
            } finally {
                for (EquinoxNode n : nodes.values()) {
                    n.close(); // routers first, so that they do not retry a broker that is going away
                }
            }
        } finally {
            deleteTree(zkData);
        }
    }

    private int run(BrokerService broker, Map<String, EquinoxNode> nodes) throws Exception {
        long end = System.nanoTime() + 20_000_000_000L;
        while (!broker.replica().isLeader() && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        QosBroker leader = broker.replica().leading();
        String api = "http://127.0.0.1:" + broker.apiAddress().getPort();
        out.printf("GridStat demo: ZooKeeper %s, broker API %s/api/v1 (try: gridstat admin --broker %s show flows)%n",
                broker.embeddedZooKeeper(), api, api);
        Map<String, Integer> ports = new LinkedHashMap<>();
        for (String r : ROUTERS) {
            ports.put(r, FreeUdpPorts.pick());
        }
        for (String r : ROUTERS) {
            NodeConfig.StatusRouterSection s = new NodeConfig.StatusRouterSection();
            s.bind = "127.0.0.1:" + ports.get(r);
            s.broker = "127.0.0.1:" + leader.controlAddress().getPort();
            List<Map<String, Object>> links = new ArrayList<>();
            List<Map<String, Object>> flows = new ArrayList<>();
            for (String next : NEXT.get(r)) {
                int port = next.equals("cc") ? subscriberPort : ports.get(next);
                links.add(Map.of("name", next, "address", "127.0.0.1:" + port));
                flows.add(Map.of("id", WARMUP_FLOW_IDS + flows.size(), "variable", WARMUP_ID.toString(), "link", next,
                        "buffer", 1000));
            }
            s.links = links;
            s.flows = flows;
            nodes.put(r, EquinoxNode.start(bundles, NodeConfig.of(r, null, s)));
        }
        for (Map.Entry<String, EquinoxNode> n : nodes.entrySet()) {
            if (n.getValue().awaitService(STATUS_ROUTER_SERVICE, EquinoxNode.TIMEOUT_MILLIS) == null) {
                out.println("router " + n.getKey() + " did not start; inactive bundles: " + n.getValue().inactiveBundles());
                return 1;
            }
        }
        end = System.nanoTime() + 20_000_000_000L;
        while (!ROUTERS.stream().allMatch(leader.control()::connected) && System.nanoTime() < end) {
            Thread.sleep(10);
        }

        BrokerConnection client = BrokerConnection.connect(URI.create(api));
        long interval = Math.round(1e9 / rateHz);
        DeclaredVariable v = client.declare(VariableDeclaration.of(VARIABLE.toString(), "r1",
                WireFormat.HEADER_LENGTH + 8 /* a double */, Duration.ofNanos(interval), ServiceClass.HRT));
        BrokerSubscription sub;
        try {
            sub = client.subscribe(v.name(), "r4", "cc", QosSpec.builder().interval(Duration.ofNanos(interval))
                    .latencyBound(Duration.ofMillis(50)).paths(2).serviceClass(ServiceClass.HRT).build());
        } catch (SubscriptionRejectedException e) {
            out.println("the broker rejected the subscription: " + e.reason());
            return 1;
        }
        out.printf("PMU %s (id %s) at %s Hz on r1; subscription %d admitted on 2 disjoint paths: %s%n", VARIABLE,
                v.id(), fmt(rateHz), sub.id(), sub.paths().stream().map(p -> String.join("->", p)).toList());
        end = System.nanoTime() + 20_000_000_000L;
        while (!ROUTERS.stream().allMatch(r -> leader.control().inSync(r)) && System.nanoTime() < end) {
            Thread.sleep(10);
        }

        LatencyMonitor monitor = new LatencyMonitor(v.id().value());
        try (Subscriber subscriber = Subscriber.open(new InetSocketAddress("127.0.0.1", subscriberPort), monitor);
             Publisher publisher = Publisher.connect(new InetSocketAddress("127.0.0.1", ports.get("r1")))) {
            warmUp(publisher);
            awaitQuiet(subscriber);
            SyntheticPmu pmu = new SyntheticPmu(
                    publisher.publication(v.id(), ServiceClass.HRT, Duration.ofMillis(50)), SystemClock.INSTANCE, rateHz);
            Thread pmuThread = new Thread(pmu, "gridstat-demo-pmu");
            pmuThread.setDaemon(true);
            pmuThread.start();
            Thread.sleep(500);
            // A threshold slightly ahead, so publisher and subscriber start counting at the same sample.
            long measureFrom = SystemClock.INSTANCE.nanos() + 100_000_000L;
            monitor.measureFrom(measureFrom);
            pmu.countFrom(measureFrom);
            Thread.sleep(100);
            monitor.takeInterval();
            report(monitor);
            pmu.stop();
            pmuThread.join(1000);
            // Let the last samples arrive; only what has not come after 2 s counts as lost.
            long settle = System.nanoTime() + 2_000_000_000L;
            while (monitor.received() < pmu.published() && System.nanoTime() < settle) {
                Thread.sleep(10);
            }
            monitor.takeInterval();
            Thread.sleep(1200); // one more statistics report from every router
            routerStatistics(client, pmu.publishedInAll(), pmu.publishedInAll() - pmu.published());
            out.println("subscription " + sub.id() + ": " + subscriber.statistics(v.id()));
            return summarize(pmu.published(), monitor, subscriber);
        }
    }

    /**
     * What each router reported to the broker about the subscription's flows. Routers count every
     * sample since the flow was installed, so their figures include the samples published before
     * the measurement began, which the summary leaves out.
     */
    private void routerStatistics(BrokerConnection client, long publishedInAll, long beforeMeasuring)
            throws java.io.IOException {
        JsonNode flows = new ObjectMapper().readTree(client.request("GET", "/flows", null).body());
        out.printf("flows as the routers report them to the broker (all %d samples the PMU published, the %d before the"
                + " measurement began included):%n", publishedInAll, beforeMeasuring);
        for (JsonNode f : flows) {
            JsonNode st = f.get("statistics");
            out.printf("  %s -> %-3s flow %d: %s%n", f.get("router").asText(), f.get("link").asText(), f.get("flowId").asLong(),
                    st == null ? "no report yet" : st.get("eventsSent").asLong() + " sent, " + st.get("overflowDrops").asLong()
                            + " overflow drops, " + st.get("deadlineMisses").asLong() + " deadline misses");
        }
    }

    /** Waits until the warm-up burst has drained from the routers' queues and sockets (at most 10 s). */
    private static void awaitQuiet(Subscriber subscriber) throws InterruptedException {
        long end = System.nanoTime() + 10_000_000_000L;
        long before = -1;
        while (System.nanoTime() < end) {
            var st = subscriber.statistics(WARMUP_ID);
            long seen = st.delivered() + st.duplicatesDiscarded();
            if (seen == before) {
                return;
            }
            before = seen;
            Thread.sleep(200);
        }
    }

    private static void deleteTree(Path dir) throws java.io.IOException {
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /**
     * At 60 Hz a freshly started JVM would still be interpreting the data path after minutes; a
     * burst through the same route compiles it, so the figures show the steady-state path.
     */
    private void warmUp(Publisher publisher) throws InterruptedException {
        var warmup = publisher.publication(WARMUP_ID, ServiceClass.BE, null);
        byte[] payload = new byte[212];
        for (int i = 0; i < WARMUP_EVENTS; i++) {
            warmup.publish(payload, 0, payload.length, SystemClock.INSTANCE.nanos());
            if (i % 500 == 499) {
                Thread.sleep(2); // stay within the socket buffers
            }
        }
    }

    private void report(LatencyMonitor monitor) throws InterruptedException {
        out.println("(after a warm-up burst of " + WARMUP_EVENTS + " events through the same route)");
        out.println("  time    received   latency p50      p99      max   (source timestamp to delivery)");
        long start = System.nanoTime();
        long lastCount = 0;
        for (int s = 1; s <= seconds; s++) {
            long wake = start + s * 1_000_000_000L;
            long now;
            while ((now = System.nanoTime()) < wake) {
                Thread.sleep(Math.max(1, (wake - now) / 1_000_000));
            }
            Histogram h = monitor.takeInterval();
            long count = monitor.received();
            out.printf("  %4d s  %5d /s   %9s %9s %9s%n", s, count - lastCount,
                    ms(h.getValueAtPercentile(50)), ms(h.getValueAtPercentile(99)), ms(h.getMaxValue()));
            lastCount = count;
        }
    }

    private int summarize(long sent, LatencyMonitor monitor, Subscriber subscriber) {
        Histogram t = monitor.total();
        long received = monitor.received();
        long lost = Math.max(0, sent - received);
        out.println();
        out.printf("summary (measured samples): sent %d, received %d, lost %d (%.2f %%), sequence gaps %d, malformed %d%n", sent, received,
                lost, sent == 0 ? 0.0 : 100.0 * lost / sent, monitor.gaps(), malformed(subscriber));
        out.printf("latency: p50 %s, p99 %s, p99.9 %s, max %s over %d samples%n", ms(t.getValueAtPercentile(50)),
                ms(t.getValueAtPercentile(99)), ms(t.getValueAtPercentile(99.9)), ms(t.getMaxValue()), t.getTotalCount());
        if (received == 0) {
            out.println("no sample arrived: the stream is broken");
            return 1;
        }
        if (lost > 0) {
            out.println(lost + " sample(s) were lost. The router drops samples that are already past their 50 ms"
                    + " deadline; on a machine too busy to publish or forward on time, that is where they go.");
            return 1;
        }
        return 0;
    }

    private static long malformed(Subscriber subscriber) {
        long n = 0;
        for (RejectReason r : RejectReason.values()) {
            n += subscriber.rejected(r);
        }
        return n;
    }

    private static String ms(long micros) {
        return String.format("%.3f ms", micros / 1000.0);
    }

    private static String fmt(double hz) {
        return hz == Math.rint(hz) ? Long.toString((long) hz) : Double.toString(hz);
    }
}
