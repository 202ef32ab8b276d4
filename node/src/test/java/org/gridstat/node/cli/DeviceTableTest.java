package org.gridstat.node.cli;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** {@code gridstat admin show devices}: the broker's device view as a table, every column from its field. */
class DeviceTableTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** gw-east reports: a PMU with a sync error, a leap second pending and frame errors, and a PDC not reached yet; gw-west has gone silent. */
    static final String DEVICES = "[{\"gateway\":\"gw-east\",\"receivedAt\":\"2026-09-21T14:13:20Z\",\"reportAgeMs\":500,"
            + "\"periodMs\":2000,\"stale\":false,\"devices\":["
            + "{\"name\":\"pmu-1\",\"state\":\"STREAMING\",\"health\":\"alarm\",\"configCount\":3,\"pmus\":2,\"dataRateHz\":30,"
            + "\"stat\":{\"word\":8224,\"dataError\":0,\"syncError\":true,\"sortedByArrival\":false,\"trigger\":false,"
            + "\"configChange\":false,\"dataModified\":false,\"pmuTimeQuality\":0,\"unlockedTime\":2,\"triggerReason\":0},"
            + "\"timeQuality\":{\"code\":4,\"leapPending\":true,\"leapOccurred\":false,\"leapDelete\":false},"
            + "\"lastDataAgeMs\":12,\"counters\":{\"DATA_FRAMES\":9000,\"DATA_STALE\":4,\"DATA_MISMATCH\":2,"
            + "\"FRAMING_REJECTS\":4},\"rejects\":{\"BAD_CRC\":3,\"MALFORMED_BODY\":1}},"
            + "{\"name\":\"pdc-2\",\"state\":\"CONNECTING\",\"health\":\"stale\",\"pmus\":0,\"dataRateHz\":0,\"counters\":{}}]},"
            + "{\"gateway\":\"gw-west\",\"receivedAt\":\"2026-09-21T14:12:00Z\",\"reportAgeMs\":80500,\"periodMs\":2000,"
            + "\"stale\":true,\"devices\":["
            + "{\"name\":\"pmu-9\",\"state\":\"STREAMING\",\"health\":\"good\",\"configCount\":1,\"pmus\":1,\"dataRateHz\":-5,"
            + "\"stat\":{\"word\":0,\"dataError\":0,\"syncError\":false,\"sortedByArrival\":false,\"trigger\":false,"
            + "\"configChange\":false,\"dataModified\":false,\"pmuTimeQuality\":0,\"unlockedTime\":0,\"triggerReason\":0},"
            + "\"timeQuality\":{\"code\":0,\"leapPending\":false,\"leapOccurred\":false,\"leapDelete\":false},"
            + "\"lastDataAgeMs\":1000,\"counters\":{\"DATA_FRAMES\":17}}]}]";

    static final String TABLE = String.join("\n",
            "GATEWAY  DEVICE  STATE       HEALTH  RATE  CFGCNT  TIME QUALITY       STAT ERRORS         DATA  CRC  MALFORMED  LATE  LAST DATA",
            "gw-east  pmu-1   STREAMING   alarm   30/s  3       <1us leap-pending  SYNC,UNLOCKED>100s  9000  3    3          4     512ms ago",
            "gw-east  pdc-2   CONNECTING  stale   -     -       -                  -                   0     0    0          0     never",
            "gw-west  pmu-9   STREAMING   stale   1/5s  1       locked             none                17    0    0          0     1m21s ago",
            "gateway gw-west has not reported for 1m20s (every 2.0s expected): its devices are shown as last reported",
            "");

    @Test
    void everyColumnComesFromItsField() throws Exception {
        assertEquals(TABLE, DeviceTable.format(JSON.readTree(DEVICES)));
    }

    @Test
    void noReportSaysSo() throws Exception {
        assertEquals("no device reported: no gateway has reported to this broker in the last hour\n",
                DeviceTable.format(JSON.readTree("[]")));
    }

    @Test
    void theStatWordsErrorsAreNamed() throws Exception {
        assertEquals("DO-NOT-USE,CFG-CHANGE,MODIFIED,TRIGGER", DeviceTable.statErrors(JSON.readTree(
                "{\"dataError\":3,\"syncError\":false,\"unlockedTime\":0,\"configChange\":true,\"dataModified\":true,"
                        + "\"trigger\":true}")));
        assertEquals("FAULT leap-occurred", DeviceTable.timeQuality(JSON.readTree(
                "{\"code\":15,\"leapPending\":false,\"leapOccurred\":true,\"leapDelete\":true}")));
    }

    @Test
    void showDevicesAsksTheBrokerAndPrintsTheTable() throws Exception {
        List<String> asked = new CopyOnWriteArrayList<>();
        HttpServer broker = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        broker.createContext("/api/v1/", exchange -> {
            asked.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
            byte[] answer = DEVICES.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        broker.start();
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = CommandRun.of("admin", "--broker", "http://127.0.0.1:" + broker.getAddress().getPort(), "show",
                    "devices").code();
        } finally {
            System.setOut(out);
            broker.stop(0);
        }
        assertEquals(0, code);
        assertEquals(List.of("GET /api/v1/devices"), asked);
        assertEquals(TABLE, printed.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aBrokerThatRefusesExitsOne() throws Exception {
        HttpServer broker = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        broker.createContext("/api/v1/", exchange -> {
            byte[] answer = "{\"error\":\"boom\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(500, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        broker.start();
        try {
            assertEquals(1, CommandRun.of("admin", "--broker", "http://127.0.0.1:" + broker.getAddress().getPort(), "show",
                    "devices").code());
        } finally {
            broker.stop(0);
        }
    }
}
