package org.gridstat.gateway.report;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.gridstat.core.time.ManualClock;
import org.gridstat.gateway.ingest.DeviceCounter;
import org.gridstat.gateway.ingest.DeviceState;
import org.gridstat.gateway.ingest.DeviceStatus;
import org.junit.jupiter.api.Test;

/** The reporter sends each report to its path, survives a broker that fails or hangs, and stops when closed. */
class DeviceReporterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long NOW = 1_790_000_000_000_000_000L;
    private final ManualClock clock = new ManualClock(NOW);

    private static DeviceStatus device(String name) {
        Map<DeviceCounter, Long> c = new EnumMap<>(DeviceCounter.class);
        c.put(DeviceCounter.DATA_FRAMES, 12L);
        return new DeviceStatus(name, DeviceState.STREAMING, 1, 1, 30, 0, 0, NOW, c, Map.of());
    }

    private static final Supplier<List<DeviceStatus>> TWO = () -> List.of(device("pmu-1"), device("pmu-2"));

    private record Put(String path, String json) {
    }

    @Test
    void aReportGoesToTheGatewaysPathWithEveryDevice() throws Exception {
        List<Put> puts = new CopyOnWriteArrayList<>();
        DeviceReporter r = new DeviceReporter("gw-east", TWO, (path, json) -> {
            puts.add(new Put(path, json));
            return 204;
        }, Duration.ofMillis(1_500), clock, clock);
        assertTrue(r.report());
        assertEquals(1, puts.size());
        assertEquals("/gateways/gw-east/devices", puts.get(0).path());
        JsonNode sent = JSON.readTree(puts.get(0).json());
        assertEquals(1_500, sent.get("periodMs").asInt());
        assertEquals("pmu-2", sent.get("devices").get(1).get("name").asText());
        assertEquals(12, sent.get("devices").get(0).get("counters").get("DATA_FRAMES").asLong());
        assertEquals(1, r.sent());
    }

    @Test
    void failuresAreCountedAndTheReporterGoesOn() {
        int[] answer = {503};
        DeviceReporter r = new DeviceReporter("gw", TWO, (path, json) -> {
            if (answer[0] < 0) {
                throw new IllegalStateException("connection refused");
            }
            return answer[0];
        }, DeviceReporter.DEFAULT_PERIOD, clock, clock);
        assertFalse(r.report());
        answer[0] = -1;
        assertFalse(r.report());
        answer[0] = 204;
        assertTrue(r.report());
        assertEquals(2, r.failed());
        assertEquals(1, r.sent());
    }

    @Test
    void anOutageIsLoggedAtItsStartThenAtMostOnceAMinuteAndAtItsEnd() {
        OutageLog log = new OutageLog(clock);
        assertNull(log.succeeded(), "nothing to say while all is well");
        assertEquals("broker down", log.failed("broker down"));
        for (int i = 0; i < 29; i++) {
            clock.advance(2_000_000_000L);
            assertNull(log.failed("broker down"), "within the minute: quiet (" + i + ")");
        }
        clock.advance(2_000_000_000L);
        assertEquals("broker down (29 more failures since the last such line)", log.failed("broker down"));
        assertEquals("reaching the broker again after 31 failed reports", log.succeeded());
        assertEquals("broker down again", log.failed("broker down again"), "a new outage is logged at once");
    }

    @Test
    void namesTheBrokerWouldRefuseAreRefusedAtTheStart() {
        DeviceReporter.Sink sink = (p, j) -> 204;
        IllegalArgumentException plus = assertThrows(IllegalArgumentException.class, () -> new DeviceReporter("gw",
                () -> List.of(device("tcp+udp")), sink, DeviceReporter.DEFAULT_PERIOD, clock, clock));
        assertEquals("device 'tcp+udp': a device reported to the broker is named by 1..64 letters, digits, '.', '_' or '-'",
                plus.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new DeviceReporter("gw",
                () -> List.of(device("a"), device("a")), sink, DeviceReporter.DEFAULT_PERIOD, clock, clock));
        assertThrows(IllegalArgumentException.class, () -> new DeviceReporter("gw one", TWO, sink,
                DeviceReporter.DEFAULT_PERIOD, clock, clock));
        assertThrows(IllegalArgumentException.class, () -> new DeviceReporter("gw", TWO, sink, Duration.ofMillis(50),
                clock, clock));
    }

    @Test
    void reportsRunOnTheirOwnThreadUntilClosed() throws Exception {
        CountDownLatch three = new CountDownLatch(3);
        List<String> threads = new CopyOnWriteArrayList<>();
        DeviceReporter r = new DeviceReporter("gw", TWO, (path, json) -> {
            threads.add(Thread.currentThread().getName());
            three.countDown();
            return 204;
        }, Duration.ofMillis(100), clock, clock).start();
        assertTrue(three.await(30, TimeUnit.SECONDS), "three reports");
        r.close();
        int after = threads.size();
        assertTrue(threads.stream().allMatch("gridstat-gateway-device-report"::equals), threads.toString());
        r.start();
        assertEquals(after, threads.size(), "once closed, no report runs, and start does not revive it");
        assertEquals(after, r.sent());
    }

    @Test
    void aBrokerThatHangsHoldsUpNeitherTheStartNorTheClose() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        DeviceReporter r = new DeviceReporter("gw", TWO, (path, json) -> {
            entered.countDown();
            try {
                new CountDownLatch(1).await(); // a request that never returns until interrupted
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw new IllegalStateException("interrupted");
            }
            return 204;
        }, Duration.ofMillis(100), clock, clock).start();
        assertTrue(entered.await(30, TimeUnit.SECONDS));
        r.close();
        assertTrue(interrupted.await(30, TimeUnit.SECONDS), "closing interrupts the report in flight");
        assertEquals(0, r.sent());
    }
}
