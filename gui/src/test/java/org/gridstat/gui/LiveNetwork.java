package org.gridstat.gui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.gridstat.broker.BrokerService;
import org.gridstat.broker.topology.Topology;
import org.gridstat.client.BrokerConnection;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.client.VariableDeclaration;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.model.VariableName;
import org.gridstat.statusrouter.api.EmbeddedRouter;

/**
 * What `gridstat demo` starts, in the test's process: a broker (embedded ZooKeeper, the
 * management API on a fixed loopback port, so a restarted broker answers at the same address) and
 * four real status routers in a diamond (r1 to r2 and r3, both to r4; r4's delivery link {@code cc}),
 * each on its own data port with its control channel to the broker, reporting every 250 ms. Two
 * variables are declared at r1, one of them published at 50 Hz so its flows carry traffic.
 *
 * <p>{@link #withStandby()} starts two broker replicas instead, {@code b1} (which leads) and
 * {@code b2}, over one ZooKeeper of their own, each with its own API and control port; the routers
 * list both control addresses, as a deployment's routers list every replica's.
 */
final class LiveNetwork implements AutoCloseable {
    static final String FREQ = "utilityA/sub1/pmu1/freq";
    static final String ANGLE = "utilityA/sub1/pmu1/angle";
    private static final List<String> ROUTERS = List.of("r1", "r2", "r3", "r4");
    private static final Map<String, List<String>> NEXT = Map.of("r1", List.of("r2", "r3"), "r2", List.of("r1", "r4"),
            "r3", List.of("r1", "r4"), "r4", List.of("r2", "r3", "cc"));
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    /** Each replica's id, API port and control port, in the order they are started. */
    private final List<String> replicaIds;
    private final Map<String, Integer> apiPorts = new LinkedHashMap<>();
    private final Map<String, Integer> controlPorts = new LinkedHashMap<>();
    private final Map<String, BrokerService> brokers = new LinkedHashMap<>();
    /** The replicas' own ZooKeeper when there are two; a single broker embeds its own. */
    private final org.gridstat.broker.store.EmbeddedZooKeeper zookeeper;
    private final Map<String, Integer> dataPorts = new LinkedHashMap<>();
    private final Map<String, EmbeddedRouter> routers = new LinkedHashMap<>();
    private final DatagramSocket controlCenter;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Publisher publisher;
    private Thread pmu;
    private Thread gateway;
    private volatile boolean publishing = true;

    /** One broker on its embedded ZooKeeper. */
    LiveNetwork() throws Exception {
        this(List.of("console-test"));
    }

    /** Two replicas, b1 leading and b2 standing by, over one ZooKeeper. */
    static LiveNetwork withStandby() throws Exception {
        return new LiveNetwork(List.of("b1", "b2"));
    }

    private LiveNetwork(List<String> replicaIds) throws Exception {
        dir = Files.createTempDirectory("gridstat-gui-test");
        this.replicaIds = List.copyOf(replicaIds);
        for (String id : replicaIds) {
            apiPorts.put(id, freeTcpPort());
            controlPorts.put(id, freeTcpPort());
        }
        zookeeper = replicaIds.size() > 1 ? org.gridstat.broker.store.EmbeddedZooKeeper.start(dir.resolve("zookeeper"), 0)
                : null;
        controlCenter = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        for (String r : ROUTERS) {
            try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
                dataPorts.put(r, probe.getLocalPort());
            }
        }
        for (String id : replicaIds) {
            startReplica(id);
        }
        await(() -> brokers.get(replicaIds.get(0)).replica().isLeader(), 30_000, "the first replica leads");
        for (String r : ROUTERS) {
            startRouter(r);
        }
        await(() -> connected(ROUTERS), 20_000, "every router connected to the broker");
        BrokerConnection c = BrokerConnection.connect(api());
        c.declare(VariableDeclaration.of(FREQ, "r1", 56, Duration.ofNanos(20_000_000), ServiceClass.HRT));
        c.declare(VariableDeclaration.of(ANGLE, "r1", 56, Duration.ofNanos(20_000_000), ServiceClass.LRT));
        publisher = Publisher.connect(new InetSocketAddress("127.0.0.1", dataPorts.get("r1")));
        Publication freq = publisher.publication(VariableId.ofName(VariableName.of(FREQ)), ServiceClass.HRT,
                Duration.ofMillis(50));
        pmu = new Thread(() -> {
            long i = 0;
            while (publishing) {
                freq.publish(50.0 + (i++ % 100) / 1000.0, System.currentTimeMillis() * 1_000_000L);
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "test-pmu");
        pmu.setDaemon(true);
        pmu.start();
        gateway = new Thread(() -> {
            while (publishing) {
                try {
                    HttpResponse<String> r = send("PUT", "/gateways/substation-a/devices", DEVICES);
                    if (r.statusCode() != 204) {
                        System.err.println("the test gateway's report was refused: " + r.statusCode() + " " + r.body());
                    }
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    // the broker is down for a moment (the restart test): the next report goes through
                }
            }
        }, "test-gateway");
        gateway.setDaemon(true);
        gateway.start();
    }

    /** What a phasor gateway reports of its devices: one of each health. */
    static final String DEVICES = """
            {"periodMs": 2000, "devices": [
              {"name": "pmu-1", "state": "STREAMING", "health": "good", "configCount": 3, "pmus": 1, "dataRateHz": 30,
               "stat": {"word": 0, "dataError": 0, "syncError": false, "sortedByArrival": false, "trigger": false, "configChange": false, "dataModified": false, "pmuTimeQuality": 0, "unlockedTime": 0, "triggerReason": 0}, "timeQuality": {"code": 0, "leapPending": false, "leapOccurred": false,
               "leapDelete": false}, "lastDataAgeMs": 12, "counters": {"CONNECTS": 1, "DATA_FRAMES": 9000}},
              {"name": "pmu-2", "state": "STREAMING", "health": "alarm", "configCount": 1, "pmus": 2, "dataRateHz": 60,
               "stat": {"word": 8192, "dataError": 0, "syncError": true, "sortedByArrival": false, "trigger": false, "configChange": false, "dataModified": false, "pmuTimeQuality": 0, "unlockedTime": 0, "triggerReason": 0}, "timeQuality": {"code": 1, "leapPending": true,
               "leapOccurred": false, "leapDelete": false}, "lastDataAgeMs": 8, "counters": {"DATA_FRAMES": 18000}},
              {"name": "pdc-east", "state": "CONNECTING", "health": "stale", "pmus": 4, "dataRateHz": 30, "counters": {"CONNECTS": 4, "DISCONNECTS": 3}},
              {"name": "pmu-3", "state": "STREAMING", "health": "bad", "configCount": 2, "pmus": 1, "dataRateHz": 30,
               "stat": {"word": 32768, "dataError": 2, "syncError": false, "sortedByArrival": false, "trigger": false, "configChange": false, "dataModified": false, "pmuTimeQuality": 0, "unlockedTime": 0, "triggerReason": 0}, "timeQuality": {"code": 0, "leapPending": false,
               "leapOccurred": false, "leapDelete": false}, "lastDataAgeMs": 30,
               "counters": {"DATA_FRAMES": 500, "DATA_STALE": 4}, "rejects": {"BAD_CRC": 2}}]}
            """;

    static Topology topology() {
        Topology.Builder b = Topology.builder();
        ROUTERS.forEach(r -> b.router(r, 200_000));
        b.between("r1", "r2", 1_250_000, 1_000_000, Topology.Builder.defaultShares());
        b.between("r1", "r3", 1_250_000, 1_000_000, Topology.Builder.defaultShares());
        b.between("r2", "r4", 1_250_000, 1_000_000, Topology.Builder.defaultShares());
        b.between("r3", "r4", 1_250_000, 1_000_000, Topology.Builder.defaultShares());
        return b.build();
    }

    private void startReplica(String id) {
        boolean own = zookeeper == null;
        brokers.put(id, BrokerService.start(new BrokerService.Settings(id, own ? "" : zookeeper.connectString(),
                own ? dir.resolve("zookeeper") : null, 0, "/gridstat-console", Duration.ofSeconds(2),
                new InetSocketAddress("127.0.0.1", controlPorts.get(id)), new InetSocketAddress("127.0.0.1", apiPorts.get(id)),
                own || id.equals(replicaIds.get(0)) ? topology() : null)));
    }

    private void startBroker() {
        startReplica(replicaIds.get(0));
        await(() -> leader() != null, 30_000, "the broker leads");
    }

    /** The replica that leads now, or {@code null}. */
    private BrokerService leader() {
        for (BrokerService b : brokers.values()) {
            if (b.replica().isLeader()) {
                return b;
            }
        }
        return null;
    }

    /** The id of the replica that leads now, or {@code null}. */
    String leaderId() {
        BrokerService b = leader();
        return b == null ? null : b.replica().settings().replicaId();
    }

    /** Stops the leading replica (its API, its replica; the ZooKeeper the replicas share stays): a standby takes over. */
    String stopLeader() {
        BrokerService b = leader();
        if (b == null) {
            throw new IllegalStateException("no replica leads");
        }
        String id = b.replica().settings().replicaId();
        brokers.remove(id).close();
        return id;
    }

    void startRouter(String r) {
        List<String> links = new ArrayList<>();
        for (String next : NEXT.get(r)) {
            int port = next.equals("cc") ? controlCenter.getLocalPort() : dataPorts.get(next);
            links.add("name=" + next + " address=127.0.0.1:" + port);
        }
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("node.id", r);
        p.put("data.bind", "127.0.0.1:" + dataPorts.get(r));
        p.put("links", links.toArray(new String[0]));
        p.put("broker.address", String.join(",", replicaIds.stream().map(id -> "127.0.0.1:" + controlPorts.get(id)).toList()));
        p.put("report.period.ms", 250);
        p.put("warm.up.frames", 0);
        p.put("event.loops", 1);
        routers.put(r, EmbeddedRouter.start(p));
    }

    void stopRouter(String r) {
        EmbeddedRouter e = routers.remove(r);
        if (e != null) {
            e.close();
        }
    }

    /** Stops the broker (its API, replica and ZooKeeper) and starts it again on the same state and addresses. */
    void restartBroker() {
        stopBroker();
        startBroker();
        await(() -> connected(ROUTERS), 30_000, "every router connected to the restarted broker");
    }

    /** Stops the (single) broker. */
    void stopBroker() {
        brokers.remove(replicaIds.get(0)).close();
    }

    void startBrokerAgain() {
        startBroker();
    }

    /** The API of the replica that leads now (of the first replica if none does). */
    URI api() {
        String id = leaderId();
        return api(id == null ? replicaIds.get(0) : id);
    }

    URI api(String replica) {
        return URI.create("http://127.0.0.1:" + apiPorts.get(replica));
    }

    /** Every replica's API, in the order they were started. */
    List<URI> apis() {
        return replicaIds.stream().map(this::api).toList();
    }

    /** Whether the leading replica has a control session with each of these routers. */
    boolean connected(List<String> ids) {
        BrokerService b = leader();
        if (b == null) {
            return false;
        }
        try {
            org.gridstat.broker.QosBroker q = b.replica().leading();
            return ids.stream().allMatch(id -> q.control().connected(id));
        } catch (org.gridstat.broker.NotLeaderException e) {
            return false;
        }
    }

    /** A GET of the API, parsed. */
    JsonNode get(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(api().resolve("/api/v1" + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(path + " answered " + r.statusCode() + ": " + r.body());
        }
        return JSON.readTree(r.body());
    }

    /** A request sent as it is: status and body. */
    HttpResponse<String> send(String method, String path, String json) throws Exception {
        return http.send(HttpRequest.newBuilder(api().resolve("/api/v1" + path)).timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/json")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    static void await(BooleanSupplier done, long millis, String what) {
        long end = System.nanoTime() + millis * 1_000_000L;
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting until " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting until " + what);
            }
        }
    }

    private static int freeTcpPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() throws Exception {
        publishing = false;
        if (pmu != null) {
            pmu.interrupt();
            pmu.join(2000);
        }
        if (gateway != null) {
            gateway.interrupt();
            gateway.join(2000);
        }
        if (publisher != null) {
            publisher.close();
        }
        for (String r : List.copyOf(routers.keySet())) {
            stopRouter(r);
        }
        for (BrokerService b : List.copyOf(brokers.values())) {
            b.close();
        }
        brokers.clear();
        if (zookeeper != null) {
            zookeeper.close();
        }
        controlCenter.close();
        try (var walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
