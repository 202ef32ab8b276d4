package org.gridstat.broker.api;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import org.gridstat.broker.adapt.GlobalAdaptation;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.gridstat.broker.BrokerReplica;
import org.gridstat.broker.store.ZooKeeperFixture;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.control.ControlFrame;
import org.gridstat.core.control.ControlMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What operators see through the API of a leading replica, with scripted routers on the control
 * channel (loopback): routers' own counters, rates with units, typed alarms, refused installs.
 */
class OperatorViewsTest {
    private static final long MS = 1_000_000L;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    private ZooKeeperFixture zk;
    private BrokerReplica leader;
    private ManagementApi api;
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<ScriptedRouter> routers = new ArrayList<>();

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
        api = new ManagementApi(new InetSocketAddress("127.0.0.1", 0), leader);
    }

    @AfterEach
    void stop() {
        routers.forEach(ScriptedRouter::close);
        api.close();
        leader.close();
        zk.close();
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.address().getPort()
                + "/api/v1" + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    private void post(String path, String body) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.address().getPort()
                        + "/api/v1" + path)).POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), r.body());
    }

    /** Polls a view until it shows what is expected; fails with the last answer after 10 s. */
    private JsonNode await(String path, Predicate<JsonNode> shown) throws Exception {
        long end = System.nanoTime() + 10_000_000_000L;
        JsonNode n = get(path);
        while (!shown.test(n)) {
            if (System.nanoTime() > end) {
                fail(path + " never showed what was expected: " + n);
            }
            Thread.sleep(20);
            n = get(path);
        }
        return n;
    }

    private ScriptedRouter router(String id, String refuseWith) throws IOException {
        ScriptedRouter r = new ScriptedRouter(leader.leading().controlAddress(), id, refuseWith);
        routers.add(r);
        return r;
    }

    private void subscribeAtoC() throws Exception {
        post("/variables", "{\"name\":\"s1/pmu1/freq\",\"router\":\"a\",\"frameBytes\":260,\"rateHz\":60,"
                + "\"serviceClass\":\"HRT\"}");
        post("/subscriptions", "{\"variable\":\"s1/pmu1/freq\",\"subscriberRouter\":\"c\",\"subscriberLink\":\"cc\","
                + "\"qos\":{\"rateHz\":60,\"latencyBoundMs\":50,\"serviceClass\":\"HRT\"}}");
    }

    private static JsonNode of(JsonNode list, String field, String value) {
        for (JsonNode n : list) {
            if (n.path(field).asText().equals(value)) {
                return n;
            }
        }
        return JSON.missingNode();
    }

    @Test
    void aRoutersDropCountersByReasonAndLinkFiguresAppear() throws Exception {
        ScriptedRouter b = router("b", null);
        b.send(new ControlMessage.RouterReport(1_790_000_000_000L, Map.of("received", 1200L, "forwarded", 1100L),
                Map.of("CHECKSUM_MISMATCH", 3L, "UNKNOWN_VARIABLE", 17L),
                Map.of("c", Map.of("eventsSent", 1100L, "datagramsSent", 400L, "overflowDrops", 2L))));

        JsonNode counters = await("/counters", n -> of(n, "router", "b").has("reportedAt"));
        JsonNode shown = of(counters, "router", "b");
        assertEquals(JSON.readTree("{\"router\":\"b\",\"connected\":true,\"reportedAt\":\"2026-09-21T14:13:20Z\","
                + "\"totals\":{\"received\":1200,\"forwarded\":1100},"
                + "\"dropsByReason\":{\"CHECKSUM_MISMATCH\":3,\"UNKNOWN_VARIABLE\":17},"
                + "\"links\":{\"c\":{\"eventsSent\":1100,\"datagramsSent\":400,\"overflowDrops\":2}}}"), shown);
        assertEquals(JSON.readTree("{\"router\":\"a\",\"connected\":false}"), of(counters, "router", "a"),
                "a router that never reported shows no counters");
    }

    @Test
    void aFlowReportedShortOfBandwidthRaisesOneCongestionAlarmUntilItIsMet() throws Exception {
        ScriptedRouter b = router("b", null);
        subscribeAtoC();
        long flow = of(await("/flows", n -> of(n, "router", "b").has("flowId")), "router", "b").get("flowId").asLong();
        for (long shortfall : new long[] {2_880, 3_000, 0, 1_000}) { // short, still short, met, short again
            b.send(new ControlMessage.FlowReport(1_790_000_000_000L, List.of(new ControlMessage.FlowSample(flow, 600,
                    172_800, 0, 0, 0, 20_000, 17_280, 20_160 + shortfall, 17_280, shortfall))));
            await("/flows", n -> of(n, "router", "b").path("statistics").path("shortfallBytesPerSecond").asLong() == shortfall);
        }
        JsonNode decisions = get("/alarms").get("decisions");
        List<String> unmet = new java.util.ArrayList<>();
        decisions.forEach(d -> {
            if (d.get("kind").asText().equals("CONGESTION_UNMET")) {
                assertEquals("b", d.get("source").asText());
                assertEquals("CRITICAL", d.get("severity").asText());
                assertEquals("flow " + flow, d.get("subject").asText(), "one alarm per flow, whatever its figures");
                assertEquals(2, d.get("count").asLong(), "raised when the shortfall appears and when it reappears, not while it lasts");
                unmet.add(d.get("message").asText());
            }
        });
        assertEquals(List.of("flow " + flow + " needs 1000 B/s more than congestion control found on its link (assured 17280 B/s)"),
                unmet, "one alarm, with the latest message");
        JsonNode shown = of(get("/flows"), "router", "b").get("statistics");
        assertEquals(17_280, shown.get("assuredInForceBytesPerSecond").asLong());
        assertEquals("CONGESTED", shown.get("state").asText(), "demand above the reservation: " + shown);
    }

    @Test
    void aFlowStillShortAfterTheReactionDelayIsReplannedAndItsRoutersGetTheNewReservation() throws Exception {
        ScriptedRouter a = router("a", null);
        ScriptedRouter b = router("b", null);
        router("c", null);
        subscribeAtoC();
        long flow = of(await("/flows", n -> of(n, "router", "b").has("flowId")), "router", "b").get("flowId").asLong();
        long reported = System.nanoTime();
        b.send(new ControlMessage.FlowReport(1_790_000_000_000L, List.of(new ControlMessage.FlowSample(flow, 600,
                172_800, 0, 0, 0, 23_040, 17_280, 23_040, 17_280, 5_760)))); // the PMU publishes 80 Hz
        JsonNode qos = await("/subscriptions/1", n -> n.path("qos").path("rateHz").asDouble() == 80.0).get("qos");
        long tookMs = (System.nanoTime() - reported) / 1_000_000;
        assertTrue(tookMs >= GlobalAdaptation.DEFAULT_DELAY.toMillis(), "not before the reaction delay: " + tookMs + " ms");
        assertEquals("HRT", qos.get("serviceClass").asText());
        long end = System.nanoTime() + 10_000_000_000L;
        while (a.installs.stream().noneMatch(f -> f.spec().assuredRate() == 80 * 288)) {
            assertTrue(System.nanoTime() < end, "the first router never got the flow at 80 Hz's reservation: " + a.installs);
            Thread.sleep(10);
        }
        // the alarm is recorded beside the installs, not before them: wait for it as for them
        List<String> adapted = new java.util.ArrayList<>();
        JsonNode decisions;
        do {
            assertTrue(System.nanoTime() < end, "no ADAPTED alarm");
            Thread.sleep(10);
            adapted.clear();
            decisions = get("/alarms").get("decisions");
            decisions.forEach(d -> {
                if (d.get("kind").asText().equals("ADAPTED")) {
                    adapted.add(d.get("message").asText());
                }
            });
        } while (adapted.isEmpty());
        assertEquals(1, adapted.size(), decisions.toString());
        assertTrue(adapted.get(0).contains("60.0 -> 80.0 Hz (23040 B/s needed on b)"), adapted.get(0));
    }

    @Test
    void ratesAreRoundedToWhatTheyMeanAndNameTheirUnits() throws Exception {
        ScriptedRouter b = router("b", null);
        subscribeAtoC();
        JsonNode qos = get("/subscriptions/1").get("qos");
        assertEquals("{\"rateHz\":60.0,\"intervalNanos\":16666667,\"latencyBoundMs\":50.0,\"paths\":1,"
                + "\"serviceClass\":\"HRT\",\"correlationGroup\":\"\"}", qos.toString());

        long flow = of(await("/flows", n -> of(n, "router", "b").has("flowId")), "router", "b").get("flowId").asLong();
        b.send(new ControlMessage.FlowReport(1_790_000_000_000L, List.of(new ControlMessage.FlowSample(flow, 600, 172_800,
                1, 2, 3, 3251.6, 3251.4999, 3_701.2, 5_760, 0))));
        JsonNode shown = of(await("/flows", n -> of(n, "router", "b").has("statistics")), "router", "b");
        assertEquals("{\"reportedAtMillis\":1790000000000,\"eventsSent\":600,\"bytesSent\":172800,\"overflowDrops\":1,"
                + "\"deadlineMisses\":2,\"backlog\":3,\"arrivalBytesPerSecond\":3252,\"departureBytesPerSecond\":3251,"
                + "\"demandBytesPerSecond\":3701,\"state\":\"MINIMUM\",\"assuredInForceBytesPerSecond\":5760,"
                + "\"shortfallBytesPerSecond\":0,\"heldRateHz\":0,\"latencyP99Micros\":0,\"reassignments\":0}",
                shown.get("statistics").toString());
        assertEquals(17280, shown.get("assuredBytesPerSecond").asLong(), "288 B a frame, 60 a second");
        assertTrue(shown.has("ceilingBytesPerSecond"), shown.toString());
        assertEquals(17280, shown.get("minimumBytesPerSecond").asLong(), "an HRT flow's MR is all of its AR: " + shown);
        JsonNode topology = get("/topology");
        assertEquals(12_500_000, topology.get("links").get(0).get("bandwidthBytesPerSecond").asLong());
        assertEquals(100_000, topology.get("routers").get(0).get("capacityEventsPerSecond").asLong());
    }

    @Test
    void aFlowsLatencyP99AndReassignmentsAreItsRoutersLatestReportInTheFlowsAndTheirEvents() throws Exception {
        ScriptedRouter b = router("b", null);
        subscribeAtoC();
        long flow = of(await("/flows", n -> of(n, "router", "b").has("flowId")), "router", "b").get("flowId").asLong();
        b.send(new ControlMessage.FlowReport(1_790_000_000_000L, List.of(new ControlMessage.FlowSample(flow, 600, 172_800,
                0, 0, 0, 17_280, 17_280, 20_160, 17_280, 0, 0, 1_834, 6))));
        JsonNode st = of(await("/flows", n -> of(n, "router", "b").has("statistics")), "router", "b").get("statistics");
        assertEquals(1_834, st.get("latencyP99Micros").asLong(), st.toString());
        assertEquals(6, st.get("reassignments").asLong(), st.toString());

        try (SseTestClient events = new SseTestClient(api.address())) {
            SseTestClient.Record snapshot = events.nextEvent();
            assertEquals("snapshot", snapshot.name());
            JsonNode inSnapshot = of(JSON.readTree(snapshot.data()).get("flows"), "router", "b").get("statistics");
            assertEquals(st, inSnapshot, "the stream's flows are the API's");

            b.send(new ControlMessage.FlowReport(1_790_000_001_000L, List.of(new ControlMessage.FlowSample(flow, 660,
                    190_080, 0, 0, 0, 17_280, 17_280, 20_160, 17_280, 0, 0, 0, 7)))); // nothing sent in the period: 0
            JsonNode pushed;
            do {
                SseTestClient.Record r = events.nextEvent();
                assertNotNull(r, "the stream stays open");
                pushed = r.name().equals("flows") ? of(JSON.readTree(r.data()), "router", "b").get("statistics") : null;
            } while (pushed == null || pushed.get("reportedAtMillis").asLong() != 1_790_000_001_000L);
            assertEquals(0, pushed.get("latencyP99Micros").asLong(), "the newer report's period: " + pushed);
            assertEquals(7, pushed.get("reassignments").asLong(), pushed.toString());
        }
        b.send(new ControlMessage.FlowReport(1_790_000_000_500L, List.of(new ControlMessage.FlowSample(flow, 630, 181_440,
                0, 0, 0, 17_280, 17_280, 20_160, 17_280, 0, 0, 9_999, 99)))); // delayed: older than the one kept
        b.send(new ControlMessage.FlowReport(1_790_000_002_000L, List.of(new ControlMessage.FlowSample(flow, 720, 207_360,
                0, 0, 0, 17_280, 17_280, 20_160, 17_280, 0, 0, 250, 7))));
        st = of(await("/flows", n -> of(n, "router", "b").path("statistics").path("reportedAtMillis").asLong()
                == 1_790_000_002_000L), "router", "b").get("statistics");
        assertEquals(250, st.get("latencyP99Micros").asLong(), "the latest report's, never the delayed one's: " + st);
        assertEquals(7, st.get("reassignments").asLong());
    }

    @Test
    void aSubscriptionWhoseInstallARouterRefusesIsShownSoAndTheRefusalIsADecisionAlarm() throws Exception {
        router("a", null);
        router("b", null);
        subscribeAtoC();
        await("/subscriptions/1", n -> n.path("state").asText().equals("installing")); // c has not connected
        assertFalse(get("/subscriptions/1").has("installRefusals"));

        ScriptedRouter c = router("c", "router c has no out-link 'cc'");
        JsonNode s = await("/subscriptions/1", n -> n.path("state").asText().equals("installRefused"));
        JsonNode refusal = s.get("installRefusals").get(0);
        assertEquals(1, s.get("installRefusals").size());
        assertEquals("c", refusal.get("router").asText());
        assertEquals("cc", refusal.get("link").asText());
        assertEquals("router c has no out-link 'cc'", refusal.get("reason").asText());
        assertEquals("installRefused", get("/subscriptions").get(0).get("state").asText());

        JsonNode decision = get("/alarms").get("decisions").get(0);
        assertEquals("c", decision.get("source").asText());
        assertEquals("INSTALL_REFUSED", decision.get("kind").asText());
        assertEquals("CRITICAL", decision.get("severity").asText());
        assertEquals("router c has no out-link 'cc'", decision.get("message").asText());

        c.close(); // reconfigured: now it takes the flow
        router("c", null);
        await("/subscriptions/1", n -> n.path("state").asText().equals("installed") && !n.has("installRefusals"));
    }

    @Test
    void malformedFramesAreFoldedNoiseApartFromDecisions() throws Exception {
        InetSocketAddress control = leader.leading().controlAddress();
        for (int i = 0; i < 3; i++) {
            try (Socket s = new Socket(control.getAddress(), control.getPort())) {
                s.getOutputStream().write(new byte[] {0, 0, 0, 5, 2, 1, 0, 0, 0}); // a 5-byte body: no header
                s.getOutputStream().flush();
                assertTrue(s.getInputStream().readAllBytes().length > 0, "told why before the close");
            }
        }
        JsonNode alarms = await("/alarms", n -> n.path("noise").size() == 1 && n.path("noise").get(0).path("count").asLong() == 3);
        JsonNode noise = alarms.get("noise").get(0);
        assertEquals("127.0.0.1", noise.get("source").asText(), "one host, whatever its ports");
        assertEquals("MALFORMED_FRAME", noise.get("kind").asText());
        assertEquals("INFO", noise.get("severity").asText());
        assertTrue(noise.get("message").asText().startsWith("malformed control frame: TRUNCATED"), noise.toString());
        assertTrue(noise.get("firstSeen").asText().endsWith("Z"), noise.toString());
        assertEquals(0, alarms.get("decisions").size());
        assertEquals(JSON.readTree("{\"decisions\":0,\"noise\":0}"), alarms.get("dropped"));
        assertEquals(0, alarms.get("noiseSuppressed").asLong());
    }

    /**
     * A Nack naming a sequence the broker never sent is rate-limited noise, not a decision: one
     * connected peer (a router's session, or whoever holds it) cannot push a real install refusal
     * out of the decisions list.
     */
    @Test
    void nacksOfNothingSentCannotPushARealRefusalOutOfTheDecisions() throws Exception {
        router("a", null);
        ScriptedRouter hostile = router("b", null);
        subscribeAtoC();
        router("c", "router c has no out-link 'cc'");
        await("/alarms", n -> n.path("decisions").size() == 1);
        for (int i = 0; i < 1_001; i++) {
            hostile.send(new ControlMessage.Nack(1_000_000 + i, "bogus " + i));
        }
        JsonNode alarms = await("/alarms", n -> n.path("noiseSuppressed").asLong() + n.path("noise").size()
                + n.path("decisions").size() + n.path("dropped").path("decisions").asLong() >= 1_001);
        assertTrue(of(alarms.get("decisions"), "kind", "INSTALL_REFUSED").has("source"),
                "the real refusal was evicted by Nacks of sequences never sent: " + alarms.get("dropped"));
    }

    /** A router on the control channel that acknowledges everything, or refuses installs with a reason. */
    private static final class ScriptedRouter implements AutoCloseable {
        private final Socket socket;
        private final AtomicLong sequence = new AtomicLong();
        private final Thread reader;
        final List<ControlMessage.InstallFlow> installs = new java.util.concurrent.CopyOnWriteArrayList<>();

        ScriptedRouter(InetSocketAddress broker, String id, String refuseWith) throws IOException {
            socket = new Socket(broker.getAddress(), broker.getPort());
            send(new ControlMessage.Hello(id));
            DataInputStream in = new DataInputStream(socket.getInputStream());
            reader = new Thread(() -> {
                try {
                    while (true) {
                        byte[] body = new byte[in.readInt()];
                        in.readFully(body);
                        ControlFrame f = ControlCodec.decode(ByteBuffer.wrap(body));
                        if (f.valid() && f.message() instanceof ControlMessage.InstallFlow install) {
                            installs.add(install);
                        }
                        if (f.valid() && f.message() instanceof ControlMessage.InstallFlow && refuseWith != null) {
                            send(new ControlMessage.Nack(f.sequence(), refuseWith));
                        } else if (f.valid()) {
                            send(new ControlMessage.Ack(f.sequence()));
                        }
                    }
                } catch (IOException closed) {
                    // the test is over with this router
                }
            }, "scripted-router-" + id);
            reader.setDaemon(true);
            reader.start();
        }

        synchronized void send(ControlMessage m) throws IOException {
            OutputStream out = socket.getOutputStream();
            out.write(ControlCodec.encode(sequence.incrementAndGet(), m));
            out.flush();
        }

        @Override
        public void close() {
            try {
                socket.close();
                reader.join(5_000);
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
