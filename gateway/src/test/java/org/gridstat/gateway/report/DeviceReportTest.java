package org.gridstat.gateway.report;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.gridstat.core.management.DeviceDocument;
import org.gridstat.gateway.c37118.data.StatWord;
import org.gridstat.gateway.c37118.frame.FracSec;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.ingest.DeviceCounter;
import org.gridstat.gateway.ingest.DeviceState;
import org.gridstat.gateway.ingest.DeviceStatus;
import org.junit.jupiter.api.Test;

/** A device snapshot as the broker's report carries it: every field, the STAT and time-quality bits decoded. */
class DeviceReportTest {
    private static final ObjectMapper JSON = new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_NULL);
    private static final long NOW = 1_790_000_000_000_000_000L;
    private static final long MS = 1_000_000L;

    private static Map<DeviceCounter, Long> counters(Object... pairs) {
        Map<DeviceCounter, Long> m = new EnumMap<>(DeviceCounter.class);
        for (DeviceCounter c : DeviceCounter.values()) {
            m.put(c, 0L);
        }
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((DeviceCounter) pairs[i], (Long) pairs[i + 1]);
        }
        return m;
    }

    /** As the broker reads it: the JSON text, so that 12 is 12 whatever Java type wrote it. */
    private static com.fasterxml.jackson.databind.JsonNode written(Object document) throws Exception {
        return JSON.readTree(JSON.writeValueAsString(document));
    }

    @Test
    void aStreamingDeviceWithErrorsCarriesEveryFigureDecoded() throws Exception {
        int stat = StatWord.of(2, true, false, false, true, false, 5, 1, 0);
        int quality = FracSec.qualityByte(false, false, true, 3);
        DeviceStatus s = new DeviceStatus("pmu-1", DeviceState.STREAMING, 7, 2, 30, stat, quality, NOW - 40 * MS,
                counters(DeviceCounter.DATA_FRAMES, 9_000L, DeviceCounter.CONNECTS, 1L, DeviceCounter.DATA_STALE, 4L,
                        DeviceCounter.FRAMING_REJECTS, 3L),
                Map.of(FrameReject.BAD_CRC, 2L, FrameReject.MALFORMED_BODY, 1L));

        assertEquals(JSON.readTree("{\"name\":\"pmu-1\",\"state\":\"STREAMING\",\"health\":\"bad\",\"configCount\":7,"
                + "\"pmus\":2,\"dataRateHz\":30,\"stat\":{\"word\":" + stat + ",\"dataError\":2,\"syncError\":true,"
                + "\"sortedByArrival\":false,\"trigger\":false,\"configChange\":true,\"dataModified\":false,"
                + "\"pmuTimeQuality\":5,\"unlockedTime\":1,\"triggerReason\":0},"
                + "\"timeQuality\":{\"code\":3,\"leapPending\":true,\"leapOccurred\":false,\"leapDelete\":false},"
                + "\"lastDataAgeMs\":40,\"counters\":{\"CONNECTS\":1,\"DATA_FRAMES\":9000,\"DATA_STALE\":4,"
                + "\"FRAMING_REJECTS\":3},\"rejects\":{\"BAD_CRC\":2,\"MALFORMED_BODY\":1}}"),
                written(DeviceReport.device(s, NOW)));
        assertEquals(0xA000 | 0x0400 | 5 << 6 | 1 << 4, stat, "the word the test means");
    }

    @Test
    void beforeTheFirstFrameOnlyTheSessionIsReported() throws Exception {
        DeviceStatus s = new DeviceStatus("pdc.2", DeviceState.CONNECTING, -1, 0, 0, -1, -1, 0, counters(),
                Map.of());
        assertEquals(JSON.readTree("{\"name\":\"pdc.2\",\"state\":\"CONNECTING\",\"health\":\"stale\",\"pmus\":0,"
                + "\"dataRateHz\":0,\"counters\":{}}"), written(DeviceReport.device(s, NOW)));
    }

    @Test
    void dataIsStaleAfterThreeFramePeriodsButNeverUnderASecond() {
        assertEquals("good", health(30, 999 * MS), "30 Hz: a second's floor");
        assertEquals("stale", health(30, 1_001 * MS));
        assertEquals("good", health(-5, 14_999 * MS), "a frame every 5 s: stale after 15 s");
        assertEquals("stale", health(-5, 15_001 * MS));
        assertEquals(1_000 * MS, DeviceReport.staleNanos(0), "no configuration yet: the floor");
    }

    private static String health(int rate, long age) {
        return DeviceReport.device(new DeviceStatus("d", DeviceState.STREAMING, 1, 1, rate, 0, 0, NOW - age, counters(),
                Map.of()), NOW).health();
    }

    @Test
    void aLockedClockWithGoodDataIsGoodAndAnUnlockedOneAnAlarm() {
        DeviceStatus locked = new DeviceStatus("d", DeviceState.STREAMING, 1, 1, 30, 0, 0, NOW - MS, counters(), Map.of());
        assertEquals("good", DeviceReport.device(locked, NOW).health());
        DeviceStatus unlocked = new DeviceStatus("d", DeviceState.STREAMING, 1, 1, 30, 0, 0x0F, NOW - MS, counters(),
                Map.of());
        assertEquals("alarm", DeviceReport.device(unlocked, NOW).health());
        assertEquals(15, DeviceReport.device(unlocked, NOW).timeQuality().code());
    }

    @Test
    void theBrokerKnowsEveryStateAndHealthTheGatewayReports() {
        for (DeviceState s : DeviceState.values()) {
            assertTrue(DeviceDocument.STATES.contains(s.name()), s.name());
        }
        assertEquals(List.of("good", "alarm", "stale", "bad"), DeviceDocument.HEALTHS);
    }

    @Test
    void aReportCarriesItsPeriodAndEveryDevice() {
        DeviceStatus a = new DeviceStatus("a", DeviceState.DISCONNECTED, -1, 0, 0, -1, -1, 0, counters(), Map.of());
        DeviceStatus b = new DeviceStatus("b", DeviceState.AWAITING_CONFIG, -1, 0, 0, -1, -1, 0, counters(), Map.of());
        var r = DeviceReport.of(List.of(a, b), NOW, 2_000);
        assertEquals(2_000, r.periodMs());
        assertEquals(List.of("a", "b"), r.devices().stream().map(DeviceDocument::name).toList());
    }
}
