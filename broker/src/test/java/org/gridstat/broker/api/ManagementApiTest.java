package org.gridstat.broker.api;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.gridstat.broker.BrokerReplica;
import org.gridstat.broker.store.ZooKeeperFixture;
import org.gridstat.broker.topology.Topology;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/** The management API over real HTTP on loopback, on a broker replica with its state in ZooKeeper. */
class ManagementApiTest {
    private static final long MS = 1_000_000L;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    private ZooKeeperFixture zk;
    private BrokerReplica leader;
    private BrokerReplica standby;
    private ManagementApi api;
    private ManagementApi standbyApi;
    private final HttpClient http = HttpClient.newHttpClient();

    /**
     * a-b-c, where b->c's HRT share (20 % of 1.4 Mbit/s) holds exactly two 60 Hz streams of
     * 260-byte frames. One stream meets its 26.4 ms hop deadline there at a 50 ms bound: 8.3 ms at
     * the share after 8.7 ms for a frame already on the wire. (The path costs a->b 2.023 ms, its
     * 1 ms delay, 23,040 ns of transmission and a's 1 ms queueing budget; b->c 3.667 ms; c's
     * delivery 1 ms: 6.690 ms in all, of which b->c gets 3.667 / 6.690 x 50 = 27.4 ms, less its
     * 1 ms delay.)
     */
    private static Topology topology() {
        Map<org.gridstat.core.model.ServiceClass, Integer> slow = new java.util.EnumMap<>(org.gridstat.core.model.ServiceClass.class);
        slow.put(org.gridstat.core.model.ServiceClass.HRT, 20);
        slow.put(org.gridstat.core.model.ServiceClass.LRT, 30);
        slow.put(org.gridstat.core.model.ServiceClass.BE, 20);
        return Topology.builder().router("a", 100_000).router("b", 100_000).router("c", 100_000)
                .between("a", "b", 12_500_000, MS, Topology.Builder.defaultShares())
                .between("b", "c", 10 * 288 * 60, MS, slow).build();
    }

    @BeforeEach
    void start() throws Exception {
        zk = new ZooKeeperFixture(dir);
        leader = new BrokerReplica(zk.client(), "/gridstat", new BrokerReplica.Settings("one",
                new InetSocketAddress("127.0.0.1", 0), "http://127.0.0.1:1/one"), topology());
        leader.start();
        long end = System.nanoTime() + 20_000_000_000L;
        while (!leader.isLeader()) {
            assertTrue(System.nanoTime() < end);
            Thread.sleep(10);
        }
        standby = new BrokerReplica(zk.client(), "/gridstat", new BrokerReplica.Settings("two",
                new InetSocketAddress("127.0.0.1", 0), "http://127.0.0.1:2/two"), null);
        standby.start();
        api = new ManagementApi(new InetSocketAddress("127.0.0.1", 0), leader);
        standbyApi = new ManagementApi(new InetSocketAddress("127.0.0.1", 0), standby);
    }

    @AfterEach
    void stop() {
        api.close();
        standbyApi.close();
        standby.close();
        leader.close();
        zk.close();
    }

    private HttpResponse<String> call(ManagementApi to, String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + to.address().getPort() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json");
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        return call(api, method, path, body);
    }

    private static String error(HttpResponse<String> r) throws Exception {
        return JSON.readTree(r.body()).get("error").asText();
    }

    private static final String SUBSCRIBE = "{\"variable\":\"s1/pmu1/freq\",\"subscriberRouter\":\"c\",\"subscriberLink\":\"cc\","
            + "\"qos\":{\"rateHz\":60,\"latencyBoundMs\":50,\"serviceClass\":\"HRT\"}}";

    @Test
    void declaresAdmitsModifiesAndTearsDown() throws Exception {
        HttpResponse<String> declared = call("POST", "/api/v1/variables", "{\"name\":\"s1/pmu1/freq\",\"router\":\"a\","
                + "\"frameBytes\":260,\"rateHz\":60,\"serviceClass\":\"HRT\"}");
        assertEquals(201, declared.statusCode(), declared.body());
        assertEquals(org.gridstat.core.model.VariableId.ofName(org.gridstat.core.model.VariableName.of("s1/pmu1/freq")).value(),
                JSON.readTree(declared.body()).get("id").asLong(), "every broker derives the id from the name");
        assertEquals(16_666_667L, JSON.readTree(declared.body()).get("intervalNanos").asLong());

        HttpResponse<String> first = call("POST", "/api/v1/subscriptions", SUBSCRIBE);
        assertEquals(201, first.statusCode(), first.body());
        JsonNode s = JSON.readTree(first.body());
        assertEquals(1, s.get("id").asLong());
        assertEquals("a", s.get("paths").get(0).get(0).get("router").asText());
        assertEquals("c", s.get("paths").get(0).get(2).get("router").asText());
        assertTrue(s.get("paths").get(0).get(2).get("next") == null, "local delivery has no next router");
        assertEquals(201, call("POST", "/api/v1/subscriptions", SUBSCRIBE).statusCode());
        // b->c holds two such streams; a third subscription fits only because the same variable at the
        // same rate over the same link reserves nothing more (multicast)
        assertEquals(201, call("POST", "/api/v1/subscriptions", SUBSCRIBE).statusCode());

        HttpResponse<String> faster = call("PUT", "/api/v1/subscriptions/1",
                "{\"qos\":{\"rateHz\":180,\"latencyBoundMs\":50,\"serviceClass\":\"HRT\"}}"); // 3x the publisher's
        assertEquals(400, faster.statusCode(), faster.body());
        assertTrue(error(faster).endsWith("is published at 60 Hz; 180 Hz asked (a higher rate is refused, not capped)"),
                error(faster));
        assertEquals(60.0, JSON.readTree(call("GET", "/api/v1/subscriptions/1", null).body()).get("qos").get("rateHz")
                .asDouble(), 0.001, "a rejected modification leaves the subscription as it was");
        HttpResponse<String> slower = call("PUT", "/api/v1/subscriptions/1",
                "{\"qos\":{\"rateHz\":30,\"latencyBoundMs\":80,\"serviceClass\":\"HRT\"}}");
        assertEquals(200, slower.statusCode(), slower.body());
        assertEquals(30.0, JSON.readTree(slower.body()).get("qos").get("rateHz").asDouble(), 0.001);

        assertEquals(3, JSON.readTree(call("GET", "/api/v1/subscriptions", null).body()).size());
        JsonNode flows = JSON.readTree(call("GET", "/api/v1/flows", null).body());
        assertEquals(3, flows.size(), "one flow per router on the path: " + flows);
        assertEquals(Set.of("a", "b", "c"), routersOf(flows));
        assertEquals(3, JSON.readTree(call("GET", "/api/v1/routers", null).body()).size());

        assertEquals(204, call("DELETE", "/api/v1/subscriptions/2", null).statusCode());
        assertEquals(404, call("DELETE", "/api/v1/subscriptions/2", null).statusCode());
        assertEquals(404, call("GET", "/api/v1/subscriptions/2", null).statusCode());
        assertEquals(2, JSON.readTree(call("GET", "/api/v1/subscriptions", null).body()).size());
    }

    @Test
    void flowsShowTheLeastRestDelayAndASegmentNamesWhatFollowsIt() throws Exception {
        assertEquals(201, call("POST", "/api/v1/variables", "{\"name\":\"s1/pmu1/freq\",\"router\":\"a\","
                + "\"frameBytes\":260,\"rateHz\":60,\"serviceClass\":\"HRT\"}").statusCode());
        HttpResponse<String> segment = call("POST", "/api/v1/subscriptions", SUBSCRIBE.replace("\"qos\"",
                "\"downstreamBudgetMs\":4,\"minRestDelayMs\":2.5,\"qos\""));
        assertEquals(201, segment.statusCode(), segment.body());
        assertEquals(2.5, JSON.readTree(segment.body()).get("minRestDelayMs").asDouble());

        // a 288-byte packet (260 + IPv4/UDP) takes a->b in 1 ms + 288 B / 12,500,000 B/s = 1,000,000 + 23,040 ns
        // and b->c in 1 ms + 288 B / 172,800 B/s = 1,000,000 + 1,666,666 ns; a hop's rest counts its own link
        Map<String, Long> rest = new java.util.TreeMap<>();
        JSON.readTree(call("GET", "/api/v1/flows", null).body())
                .forEach(f -> rest.put(f.get("router").asText(), f.get("minRestDelayNanos").asLong()));
        assertEquals(Map.of("a", 1_023_040L + 2_666_666L + 2_500_000L, "b", 2_666_666L + 2_500_000L, "c", 2_500_000L),
                rest);

        HttpResponse<String> negative = call("POST", "/api/v1/subscriptions", SUBSCRIBE.replace("\"qos\"",
                "\"minRestDelayMs\":-1,\"qos\""));
        assertEquals("minRestDelayMs must be 0..60000, got -1.0", error(negative));
        HttpResponse<String> inModification = call("PUT", "/api/v1/subscriptions/1",
                "{\"minRestDelayMs\":1,\"qos\":{\"rateHz\":30,\"latencyBoundMs\":50,\"serviceClass\":\"HRT\"}}");
        assertEquals("a modification gives the new qos only", error(inModification));
        HttpResponse<String> plain = call("GET", "/api/v1/subscriptions/1", null);
        assertEquals(4.0, JSON.readTree(plain.body()).get("downstreamBudgetMs").asDouble());
        assertEquals(2.5, JSON.readTree(plain.body()).get("minRestDelayMs").asDouble());
    }

    private static Set<String> routersOf(JsonNode flows) {
        Set<String> out = new TreeSet<>();
        flows.forEach(f -> out.add(f.get("router").asText()));
        return out;
    }

    @Test
    void badRequestsGetClearErrors() throws Exception {
        assertEquals("a JSON body is required", error(call("POST", "/api/v1/subscriptions", null)));
        HttpResponse<String> malformed = call("POST", "/api/v1/subscriptions", "{\"variable\": ");
        assertEquals(400, malformed.statusCode());
        assertTrue(error(malformed).startsWith("malformed JSON"), error(malformed));
        HttpResponse<String> unknown = call("POST", "/api/v1/subscriptions", "{\"varible\":\"x\"}");
        assertEquals("unknown field 'varible'", error(unknown));
        HttpResponse<String> missing = call("POST", "/api/v1/subscriptions", "{}");
        assertEquals("variable is required; subscriberRouter is required; subscriberLink is required; qos is required",
                error(missing));
        HttpResponse<String> badQos = call("POST", "/api/v1/subscriptions", SUBSCRIBE.replace("\"rateHz\":60",
                "\"rateHz\":60,\"intervalNanos\":5").replace("HRT", "URGENT"));
        assertEquals(400, badQos.statusCode());
        assertTrue(error(badQos).contains("give exactly one of rateHz and intervalNanos"), error(badQos));
        assertTrue(error(badQos).contains("serviceClass must be HRT, LRT or BE, got 'URGENT'"), error(badQos));
        HttpResponse<String> negative = call("POST", "/api/v1/subscriptions", SUBSCRIBE.replace("\"qos\"",
                "\"downstreamBudgetMs\":-3,\"qos\""));
        assertEquals("downstreamBudgetMs must be 0..60000, got -3.0", error(negative));
        HttpResponse<String> wrongType = call("POST", "/api/v1/variables", "{\"name\":\"x\",\"router\":\"a\",\"frameBytes\":\"big\"}");
        assertEquals(400, wrongType.statusCode());
        HttpResponse<String> noRouter = call("POST", "/api/v1/variables", "{\"name\":\"x\",\"router\":\"zz\",\"frameBytes\":100,\"rateHz\":1}");
        assertEquals("no router 'zz' in the topology", error(noRouter));
        HttpResponse<String> undeclared = call("POST", "/api/v1/subscriptions", SUBSCRIBE);
        assertEquals(409, undeclared.statusCode());
        assertEquals("no variable 's1/pmu1/freq' is declared", error(undeclared));
        assertEquals(405, call("DELETE", "/api/v1/variables", null).statusCode());
        assertEquals(404, call("GET", "/api/v1/nothing", null).statusCode());
        assertEquals("API version v2 is not served; this broker serves v1", error(call("GET", "/api/v2/topology", null)));
        assertEquals(404, call("GET", "/api/v1/subscriptions/99999999999999999999", null).statusCode());

        String huge = "{\"name\":\"" + "x".repeat(ManagementApi.MAX_BODY_BYTES) + "\"}";
        assertEquals(413, call("POST", "/api/v1/variables", huge).statusCode());
        assertEquals(200, call("GET", "/api/v1/topology", null).statusCode(), "the API still serves");
    }

    private static final String DECLARE = "{\"name\":\"s1/pmu1/freq\",\"router\":\"a\",\"frameBytes\":260,\"rateHz\":60,"
            + "\"serviceClass\":\"HRT\"}";

    private HttpResponse<String> call(ManagementApi to, String method, String path, String body, String key) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + to.address().getPort() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").header("Idempotency-Key", key);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Every link's reservation in every class, as admission counts it. */
    private Map<String, Long> reservations() {
        Map<String, Long> out = new java.util.TreeMap<>();
        for (org.gridstat.broker.topology.Link l : leader.topology().links()) {
            for (org.gridstat.core.model.ServiceClass c : org.gridstat.core.model.ServiceClass.values()) {
                out.put(l.from().id() + "->" + l.to().id() + " " + c, leader.leading().admission().reserved(l, c));
            }
        }
        return out;
    }

    private int storedSubscriptions() throws Exception {
        return zk.client().getChildren().forPath("/gridstat/subscriptions").size();
    }

    @Test
    void aLinkNameLongerThanTheLimitIsRefusedAndNothingIsStoredOrReserved() throws Exception {
        assertEquals(201, call("POST", "/api/v1/variables", DECLARE).statusCode());
        Map<String, Long> before = reservations();
        for (String link : new String[] {"x".repeat(10_000), "x".repeat(65), "c c", "c/c", ""}) {
            HttpResponse<String> r = call("POST", "/api/v1/subscriptions", SUBSCRIBE.replace("\"cc\"", "\"" + link + "\""));
            assertEquals(400, r.statusCode(), r.body());
            assertTrue(error(r).startsWith("subscriberLink must be 1..64 letters, digits, '.', '_' or '-'"), error(r));
            assertTrue(error(r).length() < 200, "the error does not echo a huge value: " + error(r).length());
        }
        assertEquals(0, storedSubscriptions(), "nothing written to ZooKeeper");
        assertEquals(before, reservations(), "nothing reserved");
        assertEquals("[]", call("GET", "/api/v1/subscriptions", null).body());
        HttpResponse<String> longest = call("POST", "/api/v1/subscriptions", SUBSCRIBE.replace("\"cc\"",
                "\"" + "x".repeat(64) + "\""));
        assertEquals(201, longest.statusCode(), longest.body());
        HttpResponse<String> router = call("POST", "/api/v1/subscriptions", SUBSCRIBE.replace("\"c\"", "\"" + "r".repeat(9_000) + "\""));
        assertEquals(400, router.statusCode());
        assertTrue(error(router).startsWith("subscriberRouter must be 1..64"), error(router));
        HttpResponse<String> unknownRouter = call("POST", "/api/v1/subscriptions", SUBSCRIBE.replace("\"c\"", "\"zz\""));
        assertEquals(400, unknownRouter.statusCode());
        assertEquals("no router 'zz' in the topology", error(unknownRouter));
        assertEquals(1, storedSubscriptions());
    }

    @Test
    void theSixtyFifthDistinctRateOfAFlowIsRefusedWith400AndNothingIsStored() throws Exception {
        assertEquals(201, call("POST", "/api/v1/variables", "{\"name\":\"s1/pmu9/freq\",\"router\":\"a\","
                + "\"frameBytes\":64,\"rateHz\":1000,\"serviceClass\":\"BE\"}").statusCode());
        for (int hz = 1; hz <= 64; hz++) { // a delivery link each at b: only the flow on a->b gathers every rate
            HttpResponse<String> r = call("POST", "/api/v1/subscriptions", "{\"variable\":\"s1/pmu9/freq\","
                    + "\"subscriberRouter\":\"b\",\"subscriberLink\":\"d" + hz + "\",\"qos\":{\"rateHz\":" + hz
                    + ",\"latencyBoundMs\":500,\"serviceClass\":\"BE\"}}");
            assertEquals(201, r.statusCode(), r.body());
        }
        Map<String, Long> before = reservations();
        HttpResponse<String> r = call("POST", "/api/v1/subscriptions", "{\"variable\":\"s1/pmu9/freq\","
                + "\"subscriberRouter\":\"b\",\"subscriberLink\":\"d65\",\"qos\":{\"rateHz\":65,"
                + "\"latencyBoundMs\":500,\"serviceClass\":\"BE\"}}");
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(error(r).contains("would gather 65 distinct rates, more than the 64 one flow can carry"), error(r));
        assertEquals(64, storedSubscriptions(), "nothing more written to ZooKeeper");
        assertEquals(before, reservations(), "nothing more reserved");
    }

    @Test
    void numbersGivenAsStringsAndOtherWrongTypesAreRefusedNamingTheField() throws Exception {
        HttpResponse<String> frame = call("POST", "/api/v1/variables", DECLARE.replace("260", "\"260\""));
        assertEquals(400, frame.statusCode());
        assertEquals("field 'frameBytes' must be a whole number, got a string", error(frame));
        HttpResponse<String> name = call("POST", "/api/v1/variables", DECLARE.replace("\"s1/pmu1/freq\"", "56"));
        assertEquals("field 'name' must be a string, got a number", error(name));
        assertEquals(201, call("POST", "/api/v1/variables", DECLARE).statusCode());
        HttpResponse<String> rate = call("POST", "/api/v1/subscriptions", SUBSCRIBE.replace("60", "\"56\""));
        assertEquals(400, rate.statusCode());
        assertEquals("field 'qos.rateHz' must be a number, got a string", error(rate));
        HttpResponse<String> paths = call("POST", "/api/v1/subscriptions", SUBSCRIBE.replace("\"rateHz\"", "\"paths\":true,\"rateHz\""));
        assertEquals("field 'qos.paths' must be a whole number, got a boolean", error(paths));
        HttpResponse<String> fraction = call("POST", "/api/v1/subscriptions", SUBSCRIBE.replace("\"rateHz\"", "\"paths\":1.5,\"rateHz\""));
        assertEquals("field 'qos.paths' must be a whole number, got a fraction", error(fraction));
        HttpResponse<String> modify = call("PUT", "/api/v1/subscriptions/1", "{\"qos\":{\"latencyBoundMs\":\"50\"}}");
        assertEquals("field 'qos.latencyBoundMs' must be a number, got a string", error(modify));
        assertEquals(0, storedSubscriptions());
    }

    @Test
    void publisherIntervalsBelowOneHundredMicrosecondsAreRefused() throws Exception {
        for (String rate : new String[] {"\"intervalNanos\":1", "\"intervalNanos\":99999", "\"rateHz\":10001", "\"rateHz\":1e12"}) {
            HttpResponse<String> r = call("POST", "/api/v1/variables", DECLARE.replace("\"rateHz\":60", rate));
            assertEquals(400, r.statusCode(), rate);
            assertTrue(error(r).startsWith("the publishing interval must be 100000..3600000000000 ns (at most 10 kHz"),
                    error(r));
        }
        assertEquals(201, call("POST", "/api/v1/variables", DECLARE.replace("\"rateHz\":60", "\"intervalNanos\":100000"))
                .statusCode());
        HttpResponse<String> frame = call("POST", "/api/v1/variables", DECLARE.replace("s1/", "s2/").replace("260", "1473"));
        assertEquals("frameBytes must be 48..1472, got 1473", error(frame));
        HttpResponse<String> router = call("POST", "/api/v1/variables", DECLARE.replace("s1/", "s2/").replace("\"a\"", "\"a b\""));
        assertTrue(error(router).startsWith("router must be 1..64 letters"), error(router));
        assertEquals(1, JSON.readTree(call("GET", "/api/v1/variables", null).body()).size());
    }

    @Test
    void deleteFreesTheBandwidthTheSubscriptionHeld() throws Exception {
        assertEquals(201, call("POST", "/api/v1/variables", DECLARE).statusCode());
        Map<String, Long> before = reservations();
        HttpResponse<String> s = call("POST", "/api/v1/subscriptions", SUBSCRIBE);
        assertEquals(201, s.statusCode());
        Map<String, Long> held = reservations();
        assertEquals(288L * 60, held.get("b->c HRT") - before.get("b->c HRT"), "260 B + 28 B of headers at 60 Hz");
        assertEquals(204, call("DELETE", "/api/v1/subscriptions/" + JSON.readTree(s.body()).get("id").asLong(), null)
                .statusCode());
        assertEquals(before, reservations(), "every reservation back where it was");
        assertEquals(0, storedSubscriptions());
    }

    @Test
    void aRepeatedRequestWithTheSameKeyIsMadeOnceAndAnsweredAlike() throws Exception {
        HttpResponse<String> declared = call(api, "POST", "/api/v1/variables", DECLARE, "d-1");
        assertEquals(201, declared.statusCode());
        HttpResponse<String> first = call(api, "POST", "/api/v1/subscriptions", SUBSCRIBE, "3f2c9a6e-0b1d-4c55-9b1e-7d4f0e2a9c11");
        HttpResponse<String> again = call(api, "POST", "/api/v1/subscriptions", SUBSCRIBE, "3f2c9a6e-0b1d-4c55-9b1e-7d4f0e2a9c11");
        assertEquals(201, first.statusCode(), first.body());
        assertEquals(201, again.statusCode(), again.body());
        assertEquals(JSON.readTree(first.body()), JSON.readTree(again.body()));
        assertEquals(1, JSON.readTree(call("GET", "/api/v1/subscriptions", null).body()).size(), "one subscription");

        HttpResponse<String> other = call(api, "POST", "/api/v1/subscriptions", SUBSCRIBE.replace("60", "30"),
                "3f2c9a6e-0b1d-4c55-9b1e-7d4f0e2a9c11");
        assertEquals(422, other.statusCode(), other.body());
        assertTrue(error(other).contains("was used for another request"), error(other));

        String change = "{\"qos\":{\"rateHz\":30}}";
        HttpResponse<String> modified = call(api, "PUT", "/api/v1/subscriptions/1", change, "m-1");
        assertEquals(200, modified.statusCode(), modified.body());
        call("PUT", "/api/v1/subscriptions/1", "{\"qos\":{\"rateHz\":20}}");
        HttpResponse<String> modifiedAgain = call(api, "PUT", "/api/v1/subscriptions/1", change, "m-1");
        assertEquals(JSON.readTree(modified.body()), JSON.readTree(modifiedAgain.body()), "the first answer, not today's state");
        assertEquals(204, call(api, "DELETE", "/api/v1/subscriptions/1", null, "u-1").statusCode());
        assertEquals(204, call(api, "DELETE", "/api/v1/subscriptions/1", null, "u-1").statusCode());
        assertEquals(404, call(api, "DELETE", "/api/v1/subscriptions/1", null, "u-2").statusCode());

        HttpResponse<String> badKey = call(api, "POST", "/api/v1/subscriptions", SUBSCRIBE, "k".repeat(129));
        assertEquals(400, badKey.statusCode());
        assertTrue(error(badKey).startsWith("Idempotency-Key must be 1..128"), error(badKey));
    }

    @Test
    void aRepeatSentToTheNextLeaderGetsTheFirstAnswer() throws Exception {
        assertEquals(201, call(api, "POST", "/api/v1/variables", DECLARE, "d-1").statusCode());
        HttpResponse<String> first = call(api, "POST", "/api/v1/subscriptions", SUBSCRIBE, "s-1");
        assertEquals(201, first.statusCode(), first.body());
        api.close();
        leader.close();
        long end = System.nanoTime() + 20_000_000_000L;
        while (!standby.isLeader()) {
            assertTrue(System.nanoTime() < end);
            Thread.sleep(10);
        }
        HttpResponse<String> again = call(standbyApi, "POST", "/api/v1/subscriptions", SUBSCRIBE, "s-1");
        assertEquals(201, again.statusCode(), again.body());
        assertEquals(JSON.readTree(first.body()), JSON.readTree(again.body()));
        assertEquals(1, JSON.readTree(call(standbyApi, "GET", "/api/v1/subscriptions", null).body()).size());
        api = new ManagementApi(new InetSocketAddress("127.0.0.1", 0), standby); // for stop()
    }

    @Test
    void aWriteFencedByAnotherLeadersEpochAnswers503() throws Exception {
        assertEquals(201, call("POST", "/api/v1/variables", DECLARE).statusCode());
        new org.gridstat.broker.store.ZooKeeperStore(zk.client(), "/gridstat").claimEpoch(); // another replica took over
        HttpResponse<String> r = call("POST", "/api/v1/subscriptions", SUBSCRIBE);
        assertEquals(503, r.statusCode(), r.body());
        assertTrue(error(r).contains("not made"), error(r));
        assertEquals(0, storedSubscriptions());
    }

    @Test
    void aModificationChangesOnlyTheFieldsItGives() throws Exception {
        // a square a-b-d, a-c-d: two node-disjoint paths
        Topology square = Topology.builder().router("a", 100_000).router("b", 100_000).router("c", 100_000).router("d", 100_000)
                .between("a", "b", 12_500_000, MS, Topology.Builder.defaultShares())
                .between("b", "d", 12_500_000, MS, Topology.Builder.defaultShares())
                .between("a", "c", 12_500_000, MS, Topology.Builder.defaultShares())
                .between("c", "d", 12_500_000, MS, Topology.Builder.defaultShares()).build();
        try (BrokerReplica r = new BrokerReplica(zk.client(), "/square", new BrokerReplica.Settings("sq",
                new InetSocketAddress("127.0.0.1", 0), "http://127.0.0.1:3/sq"), square)) {
            r.start();
            long end = System.nanoTime() + 20_000_000_000L;
            while (!r.isLeader()) {
                assertTrue(System.nanoTime() < end);
                Thread.sleep(10);
            }
            ManagementApi sq = new ManagementApi(new InetSocketAddress("127.0.0.1", 0), r);
            try {
                assertEquals(201, call(sq, "POST", "/api/v1/variables", DECLARE, "d").statusCode());
                HttpResponse<String> s = call(sq, "POST", "/api/v1/subscriptions", SUBSCRIBE.replace("\"c\"", "\"d\"")
                        .replace("\"serviceClass\"", "\"paths\":2,\"serviceClass\""), "s");
                assertEquals(201, s.statusCode(), s.body());
                HttpResponse<String> m = call(sq, "PUT", "/api/v1/subscriptions/1", "{\"qos\":{\"rateHz\":10}}", "m");
                assertEquals(200, m.statusCode(), m.body());
                JsonNode after = JSON.readTree(m.body());
                assertEquals(10.0, after.get("qos").get("rateHz").asDouble(), 1e-9);
                assertEquals("HRT", after.get("qos").get("serviceClass").asText());
                assertEquals(2, after.get("qos").get("paths").asInt());
                assertEquals(2, after.get("paths").size());
                assertEquals(50.0, after.get("qos").get("latencyBoundMs").asDouble(), 1e-9);
                HttpResponse<String> bound = call(sq, "PUT", "/api/v1/subscriptions/1", "{\"qos\":{\"latencyBoundMs\":80}}", "b");
                JsonNode b = JSON.readTree(bound.body());
                assertEquals(10.0, b.get("qos").get("rateHz").asDouble(), 1e-9, "the rate given before is kept");
                assertEquals(80.0, b.get("qos").get("latencyBoundMs").asDouble(), 1e-9);
                assertEquals("the modification gives no qos field to change",
                        error(call(sq, "PUT", "/api/v1/subscriptions/1", "{\"qos\":{}}", "e")));
            } finally {
                sq.close();
            }
        }
    }

    @Test
    void garbageOnOneConnectionDoesNotDisturbAnother() throws Exception {
        try (Socket slow = new Socket("127.0.0.1", api.address().getPort());
             Socket garbage = new Socket("127.0.0.1", api.address().getPort())) {
            slow.getOutputStream().write("POST /api/v1/variables HTTP/1.1\r\nContent-Length: 100\r\n\r\n{\"na".getBytes());
            OutputStream out = garbage.getOutputStream();
            out.write(new byte[] {0, 1, 2, (byte) 0xFF, '\r', '\n', '\r', '\n'});
            out.flush();
            garbage.setSoTimeout(5000);
            InputStream in = garbage.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
            assertEquals(200, call("GET", "/api/v1/status", null).statusCode(), "another client is served meanwhile");
        }
    }

    @Test
    void pipelinedRequestsOnOneConnectionAreAnsweredInOrder() throws Exception {
        try (Socket s = new Socket("127.0.0.1", api.address().getPort())) {
            String declare = "{\"name\":\"p/q\",\"router\":\"a\",\"frameBytes\":56,\"rateHz\":10}";
            String requests = "POST /api/v1/variables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + declare.length() + "\r\n\r\n" + declare
                    + "GET /api/v1/variables HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /api/v1/nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
            s.getOutputStream().write(requests.getBytes(StandardCharsets.US_ASCII)); // all at once, before any answer
            s.setSoTimeout(10_000);
            String answers = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int created = answers.indexOf("HTTP/1.1 201");
            int listed = answers.indexOf("HTTP/1.1 200");
            int missing = answers.indexOf("HTTP/1.1 404");
            assertTrue(created >= 0 && created < listed && listed < missing, answers);
            assertTrue(answers.substring(listed, missing).contains("\"p/q\""), "the GET sees the POST before it");
        }
    }

    @Test
    void aStandbyNamesTheLeaderAndServesTopologyAndStatus() throws Exception {
        HttpResponse<String> r = call(standbyApi, "GET", "/api/v1/subscriptions", null);
        assertEquals(503, r.statusCode());
        assertEquals("http://127.0.0.1:1/one", JSON.readTree(r.body()).get("leader").asText());
        assertEquals(200, call(standbyApi, "GET", "/api/v1/topology", null).statusCode());
        JsonNode status = JSON.readTree(call(standbyApi, "GET", "/api/v1/status", null).body());
        assertFalse(status.get("leader").asBoolean());
        assertTrue(JSON.readTree(call("GET", "/api/v1/status", null).body()).get("leader").asBoolean());
    }

    /** A request's status alone: the body is not awaited, as the event stream's never ends. */
    private int status(String method, String path, String body) throws Exception {
        HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.address().getPort()
                        + path)).method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json").build(),
                HttpResponse.BodyHandlers.ofInputStream());
        r.body().close();
        return r.statusCode();
    }

    @Test
    @SuppressWarnings("unchecked")
    void theOpenApiFileDescribesEveryRouteAndOnlyThose() throws Exception {
        HttpResponse<String> spec = call("GET", "/api/v1/openapi.yaml", null);
        assertEquals(200, spec.statusCode());
        Map<String, Object> doc = new Yaml().load(spec.body());
        Map<String, Map<String, Object>> paths = (Map<String, Map<String, Object>>) doc.get("paths");
        assertEquals(new TreeSet<>(ManagementRoutes.RESOURCES.keySet()), new TreeSet<>(paths.keySet()));
        for (Map.Entry<String, Map<String, Object>> p : paths.entrySet()) {
            Set<String> methods = new TreeSet<>(p.getValue().keySet());
            methods.remove("parameters");
            assertEquals(ManagementRoutes.RESOURCES.get(p.getKey()), methods.stream().map(String::toUpperCase)
                    .collect(java.util.stream.Collectors.toCollection(TreeSet::new)), p.getKey());
            for (String m : methods) {
                String path = "/api/v1" + p.getKey().replace("{id}", "1").replaceAll("\\{[a-z]+\\}", "x");
                int status = status(m.toUpperCase(), path, m.equals("get") || m.equals("delete") ? null : "{}");
                assertNotEquals(405, status, m + " " + path);
                assertFalse(status == 404 && !p.getKey().contains("{id}"), m + " " + path + " exists");
            }
        }
    }
}
