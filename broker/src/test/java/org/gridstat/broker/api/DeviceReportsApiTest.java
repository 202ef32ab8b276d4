package org.gridstat.broker.api;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.gridstat.broker.BrokerReplica;
import org.gridstat.broker.store.ZooKeeperFixture;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gateways' device reports through the API of a leading replica over HTTP on loopback, on a
 * manual clock: kept only when every field is valid, shown per gateway with their age, stale
 * after three of the gateway's periods, dropped after an hour, and at most 1,000 gateways.
 */
class DeviceReportsApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** 2026-09-21T14:13:20Z. */
    private static final long START = 1_790_000_000_000_000_000L;
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;
    private ZooKeeperFixture zk;
    private BrokerReplica leader;
    private BrokerReplica standby;
    private ManagementApi api;
    private ManagementApi standbyApi;
    private ManagementRoutes routes;
    private final ManualClock clock = new ManualClock(START);
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void start() throws Exception {
        zk = new ZooKeeperFixture(dir);
        Topology t = Topology.builder().router("a", 100_000).router("b", 100_000)
                .between("a", "b", 12_500_000, MS, Topology.Builder.defaultShares()).build();
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
        routes = new ManagementRoutes(leader, new DeviceReports(clock, clock));
        api = new ManagementApi(new InetSocketAddress("127.0.0.1", 0), routes);
        standbyApi = new ManagementApi(new InetSocketAddress("127.0.0.1", 0),
                new ManagementRoutes(standby, new DeviceReports(clock, clock)));
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
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + to.address().getPort() + "/api/v1" + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> put(String gateway, String body) throws Exception {
        return call(api, "PUT", "/gateways/" + gateway + "/devices", body);
    }

    private JsonNode devices() throws Exception {
        HttpResponse<String> r = call(api, "GET", "/devices", null);
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    private static String error(HttpResponse<String> r) throws Exception {
        return JSON.readTree(r.body()).get("error").asText();
    }

    /** A streaming PMU whose last frame had a sync error (STAT 0x2000) and time quality code 1 with a leap second pending. */
    private static final String PMU = "{\"name\":\"pmu-1\",\"state\":\"STREAMING\",\"health\":\"alarm\",\"configCount\":3,"
            + "\"pmus\":2,\"dataRateHz\":30,\"stat\":{\"word\":8192,\"dataError\":0,\"syncError\":true,"
            + "\"sortedByArrival\":false,\"trigger\":false,\"configChange\":false,\"dataModified\":false,"
            + "\"pmuTimeQuality\":0,\"unlockedTime\":0,\"triggerReason\":0},"
            + "\"timeQuality\":{\"code\":1,\"leapPending\":true,\"leapOccurred\":false,\"leapDelete\":false},"
            + "\"lastDataAgeMs\":12,\"counters\":{\"DATA_FRAMES\":9000,\"CONNECTS\":1,\"DATA_STALE\":4},"
            + "\"rejects\":{\"BAD_CRC\":2,\"MALFORMED_BODY\":1}}";
    /** A device never connected: no configuration, no data. */
    private static final String SILENT = "{\"name\":\"pdc.2\",\"state\":\"CONNECTING\",\"health\":\"stale\",\"pmus\":0,"
            + "\"dataRateHz\":0,\"counters\":{}}";
    private static final String REPORT = "{\"periodMs\":2000,\"devices\":[" + PMU + "," + SILENT + "]}";

    @Test
    void aReportIsShownAsSentWithTheGatewayAndItsAge() throws Exception {
        HttpResponse<String> r = put("gw-east.1", REPORT);
        assertEquals(204, r.statusCode(), r.body());
        clock.advance(1_500 * MS);

        JsonNode expected = JSON.readTree("[{\"gateway\":\"gw-east.1\",\"receivedAt\":\"2026-09-21T14:13:20Z\","
                + "\"reportAgeMs\":1500,\"periodMs\":2000,\"stale\":false,\"devices\":[" + PMU + "," + SILENT + "]}]");
        assertEquals(expected, devices());

        // the next report replaces the previous one whole
        assertEquals(204, put("gw-east.1", "{\"periodMs\":2000,\"devices\":[" + SILENT + "]}").statusCode());
        JsonNode now = devices();
        assertEquals(1, now.get(0).get("devices").size());
        assertEquals("pdc.2", now.get(0).get("devices").get(0).get("name").asText());
        assertEquals(0, now.get(0).get("reportAgeMs").asLong());
        assertEquals("2026-09-21T14:13:21.500Z", now.get(0).get("receivedAt").asText());
    }

    @Test
    void gatewaysAreListedByIdEachWithItsOwnDevices() throws Exception {
        assertEquals(204, put("zeta", "{\"periodMs\":1000,\"devices\":[" + SILENT + "]}").statusCode());
        assertEquals(204, put("alpha", REPORT).statusCode());
        assertEquals(204, put("mid", "{\"periodMs\":1000,\"devices\":[]}").statusCode());
        List<String> order = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        devices().forEach(g -> {
            order.add(g.get("gateway").asText());
            counts.add(g.get("devices").size());
        });
        assertEquals(List.of("alpha", "mid", "zeta"), order);
        assertEquals(List.of(2, 0, 1), counts);
    }

    @Test
    void aGatewayIsStaleAfterThreeOfItsPeriodsAndDroppedAfterAnHour() throws Exception {
        assertEquals(204, put("gw", REPORT).statusCode());
        clock.advance(6_000 * MS);
        assertFalse(devices().get(0).get("stale").asBoolean(), "three periods of 2 s: not yet");
        clock.advance(1);
        assertTrue(devices().get(0).get("stale").asBoolean(), "past three periods");
        assertEquals(204, put("gw", REPORT).statusCode());
        assertFalse(devices().get(0).get("stale").asBoolean(), "a new report makes it current again");

        clock.advance(3_600_000 * MS);
        assertEquals(1, devices().size(), "an hour of silence: still shown");
        clock.advance(1);
        assertEquals(0, devices().size(), "beyond an hour: dropped");
    }

    /** Each bad body, and a fragment of what the answer must say of it. */
    private static final Map<String, String> BAD = new java.util.LinkedHashMap<>();

    static {
        BAD.put("", "a JSON body is required");
        BAD.put("null", "a JSON object is required");
        BAD.put("{\"periodMs\":2000,\"devices\":[" + PMU + "]", "malformed JSON");
        BAD.put("{\"periodMs\":2000,\"devices\":[],\"site\":\"x\"}", "unknown field 'site'");
        BAD.put(REPORT.replace("\"pmus\":2,", "\"pmus\":2,\"colour\":\"red\","), "unknown field 'colour'");
        BAD.put(REPORT.replace("\"leapDelete\":false", "\"leapDelete\":false,\"bit7\":true"), "unknown field 'bit7'");
        BAD.put("{\"periodMs\":2000,\"periodMs\":10,\"devices\":[]}", "periodMs");
        BAD.put(REPORT.replace("\"pmus\":2", "\"pmus\":\"2\""), "field 'devices[0].pmus' must be a whole number, got a string");
        BAD.put(REPORT.replace("\"dataRateHz\":30", "\"dataRateHz\":30.5"), "devices[0].dataRateHz");
        BAD.put(REPORT.replace("\"DATA_FRAMES\":9000", "\"DATA_FRAMES\":\"9000\""), "devices[0].counters.DATA_FRAMES");
        BAD.put("{\"devices\":[]}", "periodMs is required");
        BAD.put("{\"periodMs\":99,\"devices\":[]}", "periodMs must be 100..600000, got 99");
        BAD.put("{\"periodMs\":2000}", "devices is required");
        BAD.put(REPORT.replace("\"pmu-1\"", "\"pmu 1\""), "devices[0].name must be 1..64 letters, digits, '.', '_' or '-', got 'pmu 1'");
        BAD.put(REPORT.replace("\"pmu-1\"", "\"" + "p".repeat(65) + "\""), "devices[0].name must be 1..64 letters, digits, '.', '_' or '-', got 65 characters");
        BAD.put(REPORT.replace("\"name\":\"pmu-1\",", ""), "devices[0].name is required");
        BAD.put(REPORT.replace("\"pdc.2\"", "\"pmu-1\""), "devices[1].name 'pmu-1' names another device of the report too");
        BAD.put(REPORT.replace("\"STREAMING\"", "\"RUNNING\""), "devices[0].state must be one of DISCONNECTED, CONNECTING, AWAITING_CONFIG, STREAMING, got 'RUNNING'");
        BAD.put(REPORT.replace("\"alarm\"", "\"GOOD\""), "devices[0].health must be one of good, alarm, stale, bad, got 'GOOD'");
        BAD.put(REPORT.replace("\"configCount\":3", "\"configCount\":65536"), "devices[0].configCount must be 0..65535, got 65536");
        BAD.put(REPORT.replace("\"pmus\":2", "\"pmus\":-1"), "devices[0].pmus must be 0..65535, got -1");
        BAD.put(REPORT.replace("\"pmus\":0,", ""), "devices[1].pmus is required");
        BAD.put(REPORT.replace("\"dataRateHz\":30", "\"dataRateHz\":40000"), "devices[0].dataRateHz must be -32768..32767, got 40000");
        BAD.put(REPORT.replace("\"word\":8192", "\"word\":65536"), "devices[0].stat.word must be 0..65535, got 65536");
        BAD.put(REPORT.replace("\"syncError\":true", "\"syncError\":false"), "devices[0].stat: the fields given do not decode word 8192 (0x2000)");
        BAD.put(REPORT.replace("\"code\":1", "\"code\":16"), "devices[0].timeQuality.code must be 0..15, got 16");
        BAD.put(REPORT.replace("\"leapPending\":true,", ""), "devices[0].timeQuality: leapPending, leapOccurred and leapDelete are required");
        BAD.put(REPORT.replace("\"lastDataAgeMs\":12", "\"lastDataAgeMs\":-12"), "devices[0].lastDataAgeMs must not be negative, got -12");
        BAD.put(REPORT.replace(",\"counters\":{}", ""), "devices[1].counters is required");
        BAD.put(REPORT.replace("\"CONNECTS\"", "\"connects\""), "devices[0].counters: a name must be 1..64 capitals, digits and '_' starting with a capital, got 'connects'");
        BAD.put(REPORT.replace("\"DATA_STALE\":4", "\"DATA_STALE\":-4"), "devices[0].counters.DATA_STALE must be a count, 0 or more, got -4");
        BAD.put(REPORT.replace("\"BAD_CRC\":2", "\"BAD_CRC\":null"), "devices[0].rejects.BAD_CRC must be a count, 0 or more, got null");
        StringBuilder many = new StringBuilder("{");
        for (int i = 0; i < 65; i++) {
            many.append(i == 0 ? "" : ",").append("\"C").append(i).append("\":1");
        }
        BAD.put(REPORT.replace("\"counters\":{}", "\"counters\":" + many + "}"), "devices[1].counters may hold at most 64 entries, got 65");
    }

    @Test
    void everyInvalidFieldIsRefusedNamingItAndNothingIsKept() throws Exception {
        assertEquals(204, put("gw", REPORT).statusCode());
        JsonNode before = devices();
        for (Map.Entry<String, String> bad : BAD.entrySet()) {
            HttpResponse<String> r = put("gw", bad.getKey());
            assertEquals(400, r.statusCode(), bad.getKey() + " -> " + r.body());
            assertTrue(error(r).contains(bad.getValue()), "for " + bad.getKey() + "\nexpected: " + bad.getValue()
                    + "\ngot: " + error(r));
            HttpResponse<String> elsewhere = put("other", bad.getKey());
            assertEquals(400, elsewhere.statusCode(), "a new gateway's bad report too");
        }
        assertEquals(before, devices(), "the last good report stands, and no other gateway appears");
    }

    @Test
    void everyProblemOfAReportIsListedUpToTwenty() throws Exception {
        HttpResponse<String> two = put("gw", REPORT.replace("\"pmus\":2", "\"pmus\":-1").replace("\"GOOD\"", "x")
                .replace("\"alarm\"", "\"GOOD\""));
        assertEquals("devices[0].health must be one of good, alarm, stale, bad, got 'GOOD'; devices[0].pmus must be"
                + " 0..65535, got -1", error(two));
        StringBuilder body = new StringBuilder("{\"periodMs\":2000,\"devices\":[");
        for (int i = 0; i < 30; i++) {
            body.append(i == 0 ? "" : ",").append(SILENT.replace("\"pdc.2\"", "\"d" + i + "\"").replace("\"pmus\":0", "\"pmus\":-1"));
        }
        HttpResponse<String> thirty = put("gw", body + "]}");
        assertEquals(400, thirty.statusCode());
        assertTrue(error(thirty).endsWith("devices[19].pmus must be 0..65535, got -1; and 10 more problems"), error(thirty));
    }

    @Test
    void theGatewayIdInThePathFollowsTheTopologysNameRule() throws Exception {
        HttpResponse<String> spaced = put("gw%20one", REPORT);
        assertEquals(400, spaced.statusCode(), spaced.body());
        assertEquals("the gateway id must be 1..64 letters, digits, '.', '_' or '-', got 'gw one'", error(spaced));
        HttpResponse<String> longId = put("g".repeat(65), REPORT);
        assertEquals("the gateway id must be 1..64 letters, digits, '.', '_' or '-', got 65 characters", error(longId));
        assertEquals(404, put("", REPORT).statusCode(), "no id: no such resource");
        assertEquals(404, put("a/b", REPORT).statusCode(), "an id is one path segment");
        assertEquals(405, call(api, "GET", "/gateways/gw/devices", null).statusCode());
        assertEquals(405, call(api, "PUT", "/devices", REPORT).statusCode());
        assertEquals(0, devices().size());
    }

    @Test
    void aThousandDevicesAreTheMostOneGatewayReports() {
        StringBuilder body = new StringBuilder("{\"periodMs\":2000,\"devices\":[");
        for (int i = 0; i < 1_001; i++) {
            body.append(i == 0 ? "" : ",").append("{\"name\":\"d").append(i)
                    .append("\",\"state\":\"DISCONNECTED\",\"health\":\"stale\",\"pmus\":0,\"dataRateHz\":0,\"counters\":{}}");
        }
        // over HTTP the API's 64 KiB body limit refuses such a report first (413); the cap holds without it
        RequestParser.BadRequest e = assertThrows(RequestParser.BadRequest.class,
                () -> DeviceReportParser.report((body + "]}").getBytes(StandardCharsets.UTF_8)));
        assertEquals("a gateway may report at most 1000 devices, got 1001", e.getMessage());
        int lastComma = body.lastIndexOf(",{");
        assertEquals(1_000, DeviceReportParser.report((body.substring(0, lastComma) + "]}").getBytes(StandardCharsets.UTF_8))
                .devices().size());
    }

    @Test
    void theThousandAndFirstGatewayIsRefusedWhileTheOthersReportAndTakesTheLongestSilentOnesPlace() throws Exception {
        byte[] small = "{\"periodMs\":2000,\"devices\":[]}".getBytes(StandardCharsets.UTF_8);
        for (int i = 1; i <= 1_000; i++) {
            assertEquals(204, routes.handle("PUT", "/api/v1/gateways/gw-" + i + "/devices", small).get().status());
        }
        HttpResponse<String> refused = put("gw-1001", "{\"periodMs\":2000,\"devices\":[]}");
        assertEquals(409, refused.statusCode(), refused.body());
        assertEquals("the broker shows the devices of at most 1000 gateways, and all 1000 it shows are reporting;"
                + " gateway 'gw-1001' is refused until one of them falls silent", error(refused));
        assertEquals(204, put("gw-1", "{\"periodMs\":2000,\"devices\":[]}").statusCode(), "a gateway shown still reports");

        clock.advance(6_001 * MS); // every gateway is stale now; all but gw-7 report again
        for (int i = 1; i <= 1_000; i++) {
            if (i != 7) {
                assertEquals(204, routes.handle("PUT", "/api/v1/gateways/gw-" + i + "/devices", small).get().status());
            }
        }
        assertEquals(204, put("gw-1001", "{\"periodMs\":2000,\"devices\":[]}").statusCode());
        List<String> shown = new ArrayList<>();
        devices().forEach(g -> shown.add(g.get("gateway").asText()));
        assertEquals(1_000, shown.size());
        assertFalse(shown.contains("gw-7"), "the silent gateway made room");
        assertTrue(shown.contains("gw-1001") && shown.contains("gw-1"));
        assertEquals(409, put("gw-1002", "{\"periodMs\":2000,\"devices\":[]}").statusCode(),
                "and no live gateway is pushed out");
    }

    @Test
    void aStandbyKeepsNothingAndNamesTheLeader() throws Exception {
        HttpResponse<String> r = call(standbyApi, "PUT", "/gateways/gw/devices", REPORT);
        assertEquals(503, r.statusCode(), r.body());
        assertEquals("http://127.0.0.1:1/one", JSON.readTree(r.body()).get("leader").asText());
        assertEquals(503, call(standbyApi, "GET", "/devices", null).statusCode());
        assertEquals(0, devices().size());
    }
}
