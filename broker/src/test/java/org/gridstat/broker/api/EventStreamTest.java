package org.gridstat.broker.api;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.LongSupplier;
import org.gridstat.broker.BrokerReplica;
import org.gridstat.broker.store.ZooKeeperFixture;
import org.gridstat.broker.topology.Topology;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The event stream of a leading replica over loopback, on a short pulse (10 ms) and keepalive
 * (50 ms) so that a few pulses take little time: the snapshot first, then an event for each
 * resource that changed and nothing for those that did not, at most 16 streams, a standby's
 * refusal naming the leader, and a console that stops reading closed instead of queued for.
 */
@Timeout(120)
class EventStreamTest {
    private static final long MS = 1_000_000L;
    private static final ObjectMapper JSON = new ObjectMapper();
    static final EventStreamSettings FAST = new EventStreamSettings(10 * MS, 50 * MS, 16, 300 * MS);

    @TempDir
    Path dir;
    private ZooKeeperFixture zk;
    private BrokerReplica leader;
    private BrokerReplica standby;
    private ManagementApi api;
    private ManagementApi standbyApi;
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<AutoCloseable> clients = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        zk = new ZooKeeperFixture(dir);
        Topology t = Topology.builder().router("a", 100_000).router("b", 100_000).router("c", 100_000)
                .between("a", "b", 12_500_000, MS, Topology.Builder.defaultShares())
                .between("b", "c", 12_500_000, MS, Topology.Builder.defaultShares()).build();
        leader = new BrokerReplica(zk.client(), "/gridstat", new BrokerReplica.Settings("one",
                new InetSocketAddress("127.0.0.1", 0), "http://127.0.0.1:1/one"), t);
        leader.start();
        long end = System.nanoTime() + 20_000_000_000L;
        while (!leader.isLeader()) {
            assertTrue(System.nanoTime() < end, "never led");
            Thread.sleep(10);
        }
        standby = new BrokerReplica(zk.client(), "/gridstat", new BrokerReplica.Settings("two",
                new InetSocketAddress("127.0.0.1", 0), "http://127.0.0.1:2/two"), null);
        standby.start();
        api = new ManagementApi(new InetSocketAddress("127.0.0.1", 0), leader, new ApiLimits(1000, 10_000 * MS, FAST));
        standbyApi = new ManagementApi(new InetSocketAddress("127.0.0.1", 0), standby, new ApiLimits(1000, 10_000 * MS, FAST));
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : clients) {
            c.close();
        }
        api.close();
        standbyApi.close();
        standby.close();
        leader.close();
        zk.close();
    }

    private SseTestClient stream() throws Exception {
        SseTestClient c = new SseTestClient(api.address());
        clients.add(c);
        return c;
    }

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.address().getPort() + "/api/v1" + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> r = call("GET", path, null);
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    private static void await(LongSupplier value, long expected, String what) throws InterruptedException {
        long end = System.nanoTime() + 20_000 * MS;
        while (value.getAsLong() != expected) {
            assertTrue(System.nanoTime() < end, what + ": " + value.getAsLong() + ", expected " + expected);
            Thread.sleep(5);
        }
    }

    @Test
    void aConsoleGetsTheSnapshotThenTheSubscriptionsEachTimeOneIsAdmittedOrTornDown() throws Exception {
        SseTestClient c = stream();
        assertEquals(200, c.status);
        assertEquals("text/event-stream; charset=utf-8", c.headers.get("content-type"));
        SseTestClient.Record snapshot = c.next();
        assertEquals("snapshot", snapshot.name(), "the first record");
        assertEquals(1, snapshot.id());
        JsonNode s = JSON.readTree(snapshot.data());
        assertEquals(List.of("flows", "subscriptions", "alarms", "devices", "routers"), fieldNames(s));
        for (String resource : LiveViews.RESOURCES) {
            assertEquals(get("/" + resource), s.get(resource), resource + " as GET answers it");
        }

        assertEquals(201, call("POST", "/variables", "{\"name\":\"s1/pmu1/freq\",\"router\":\"a\",\"frameBytes\":260,"
                + "\"rateHz\":60,\"serviceClass\":\"HRT\"}").statusCode());
        HttpResponse<String> admitted = call("POST", "/subscriptions", "{\"variable\":\"s1/pmu1/freq\",\"subscriberRouter\":\"c\","
                + "\"subscriberLink\":\"cc\",\"qos\":{\"rateHz\":60,\"latencyBoundMs\":50,\"serviceClass\":\"HRT\"}}");
        assertEquals(201, admitted.statusCode(), admitted.body());
        List<SseTestClient.Record> seen = new ArrayList<>();
        Map<String, JsonNode> latest = new HashMap<>();
        awaitLatest(c, latest, seen, m -> m.containsKey("subscriptions") && m.containsKey("flows"));
        JsonNode listed = latest.get("subscriptions");
        assertEquals(1, listed.size());
        assertEquals(1, listed.get(0).get("id").asLong());
        assertEquals("installing", listed.get(0).get("state").asText(), "no router is connected");
        assertEquals(get("/subscriptions"), listed, "the whole resource, as GET answers it");
        assertEquals(3, latest.get("flows").size(), "a, b and c each hold the flow: " + latest.get("flows"));

        assertEquals(204, call("DELETE", "/subscriptions/1", null).statusCode());
        awaitLatest(c, latest, seen, m -> m.get("subscriptions").isEmpty() && m.get("flows").isEmpty());
        long id = 1;
        for (SseTestClient.Record r : seen) {
            assertEquals(++id, r.id(), "ids count the events of this stream: " + r.name());
            assertTrue(List.of("subscriptions", "flows").contains(r.name()), "only what changed: " + r.name());
        }
    }

    /**
     * Reads events, keeping the latest data of each by name, until {@code shown} holds of them;
     * fails after 20 s (keepalives keep the socket from timing out).
     */
    private static void awaitLatest(SseTestClient c, Map<String, JsonNode> latest, List<SseTestClient.Record> seen,
                                    Predicate<Map<String, JsonNode>> shown) throws Exception {
        long end = System.nanoTime() + 20_000 * MS;
        while (!shown.test(latest)) {
            assertTrue(System.nanoTime() < end, "the stream never showed what was expected; seen " + seen);
            SseTestClient.Record r = c.nextEvent();
            assertNotNull(r, "the stream ended; seen " + seen);
            seen.add(r);
            latest.put(r.name(), JSON.readTree(r.data()));
        }
    }

    private static List<String> fieldNames(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }

    @Test
    void aQuietBrokerSendsOnlyKeepalives() throws Exception {
        SseTestClient c = stream();
        assertEquals("snapshot", c.next().name());
        int keepalives = 0;
        // 10 keepalives of 50 ms span at least 50 pulses of 10 ms
        while (keepalives < 10) {
            SseTestClient.Record r = c.next();
            assertNotNull(r, "the stream ended");
            assertTrue(r.keepalive(), "nothing changed, yet a " + r.name() + " event came: " + r.data());
            assertEquals("keepalive", r.data());
            keepalives++;
        }
    }

    @Test
    void theSeventeenthStreamIsRefusedAndAClosedOneFreesItsPlace() throws Exception {
        List<SseTestClient> open = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            SseTestClient c = stream();
            assertEquals("snapshot", c.next().name());
            open.add(c);
        }
        SseTestClient refused = stream();
        assertEquals(503, refused.status);
        assertEquals("the broker serves at most 16 event streams at once and all are open; close one, or poll the"
                + " resources instead", JSON.readTree(refused.body).get("error").asText());
        assertNull(refused.next(), "the refused connection is closed");
        assertEquals(1, api.streamCounters().refusedAtCap());
        assertEquals(16, api.streamCounters().open());

        open.get(0).close();
        await(() -> api.streamCounters().open(), 15, "streams open after one closed");
        SseTestClient again = stream();
        assertEquals(200, again.status);
        assertEquals("snapshot", again.next().name());
        assertEquals(200, call("GET", "/status", null).statusCode(), "requests are answered beside 16 streams");
    }

    @Test
    void aStandbyAnswers503NamingTheLeader() throws Exception {
        SseTestClient c = new SseTestClient(standbyApi.address());
        clients.add(c);
        assertEquals(503, c.status);
        JsonNode error = JSON.readTree(c.body);
        assertEquals("http://127.0.0.1:1/one", error.get("leader").asText());
        assertEquals(0, standbyApi.streamCounters().open());
    }

    @Test
    void theRequestLimitsDoNotEndAStream() throws Exception {
        api.close();
        // a request deadline of 100 ms and room for two connections
        api = new ManagementApi(new InetSocketAddress("127.0.0.1", 0), leader, new ApiLimits(2, 100 * MS, FAST));
        SseTestClient c = stream();
        assertEquals("snapshot", c.next().name());
        try (Socket idle = new Socket()) {
            idle.connect(api.address());
            await(() -> api.counters().connections(), 2, "the stream and an idle connection");
            assertEquals(200, call("GET", "/status", null).statusCode(), "a third connection displaces the idle one");
            assertEquals(-1, idle.getInputStream().read(), "the idle connection, not the stream, made room");
        }
        for (int i = 0; i < 10; i++) { // 500 ms: five request deadlines
            assertTrue(c.next().keepalive());
        }
        assertEquals(1, api.streamCounters().open());
    }

    @Test
    void aConsoleThatStopsReadingIsClosedWithoutTheBrokerQueueingForIt() throws Exception {
        // about 40 KiB of devices, reported again and again (each report a change): a devices event each pulse
        StringBuilder report = new StringBuilder("{\"periodMs\":600000,\"devices\":[");
        for (int i = 0; i < 500; i++) {
            report.append(i == 0 ? "" : ",").append("{\"name\":\"pmu-").append(i)
                    .append("\",\"state\":\"STREAMING\",\"health\":\"good\",\"pmus\":1,\"dataRateHz\":60,\"counters\":{}}");
        }
        HttpResponse<String> put = call("PUT", "/gateways/gw-1/devices", report.append("]}").toString());
        assertEquals(204, put.statusCode(), put.body());
        long pulseBytes = 0;
        for (String resource : LiveViews.RESOURCES) {
            pulseBytes += call("GET", "/" + resource, null).body().length() + 64;
        }

        String again = report.toString();
        java.util.concurrent.atomic.AtomicBoolean reporting = new java.util.concurrent.atomic.AtomicBoolean(true);
        Thread gateway = new Thread(() -> {
            while (reporting.get()) {
                try {
                    call("PUT", "/gateways/gw-1/devices", again);
                } catch (Exception e) {
                    return;
                }
            }
        }, "test-gateway");
        gateway.setDaemon(true);
        gateway.start();
        SseTestClient stalled = new SseTestClient(api.address(), 4096);
        clients.add(stalled);
        try {
            await(() -> api.streamCounters().closedUnwritable(), 1, "streams closed for taking nothing");
        } finally {
            reporting.set(false);
            gateway.join(5_000);
        }
        ManagementApi.StreamCounters counters = api.streamCounters();
        assertEquals(0, counters.open());
        assertTrue(counters.skippedPulses() >= 2, "pulses found it unwritable, then one closed it: " + counters);
        long bound = 64 * 1024 + pulseBytes + 1024;
        assertTrue(counters.largestBacklogBytes() <= bound, "the broker held at most one pulse beyond Netty's high-water"
                + " mark (" + bound + " bytes): " + counters);
        assertTrue(stalled.drain() > 0, "what the socket buffers held, then the end");
    }

    @Test
    void closingTheApiClosesItsStreams() throws Exception {
        SseTestClient c = stream();
        assertEquals("snapshot", c.next().name());
        api.close();
        int records = 0;
        for (SseTestClient.Record r = c.next(); r != null; r = c.next()) {
            assertTrue(r.keepalive() && ++records < 3, "a keepalive may have been on its way, no more: " + r);
        }
        api = new ManagementApi(new InetSocketAddress("127.0.0.1", 0), leader); // for stop()
    }

    @Test
    void aReplicaThatLosesTheLeadClosesItsStreams() throws Exception {
        SseTestClient c = stream();
        assertEquals("snapshot", c.next().name());
        leader.close();
        int keepalives = 0;
        for (SseTestClient.Record r = c.next(); r != null; r = c.next()) {
            assertTrue(r.keepalive(), "nothing but keepalives before the end: " + r.name());
            assertTrue(++keepalives < 200, "still open 10 s after the replica closed");
        }
        assertEquals(1, api.streamCounters().closedUnanswered());
    }
}
