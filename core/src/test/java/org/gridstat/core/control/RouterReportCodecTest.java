package org.gridstat.core.control;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.gridstat.core.control.ControlFrame.Reject;
import org.gridstat.core.control.ControlMessage.RouterReport;
import org.junit.jupiter.api.Test;

class RouterReportCodecTest {
    static final RouterReport REPORT = new RouterReport(1_790_000_000_000L,
            Map.of("received", 1200L, "forwarded", 2300L, "datagramsSent", 800L),
            Map.of("CHECKSUM_MISMATCH", 3L, "UNKNOWN_VARIABLE", 17L),
            Map.of("r2", Map.of("eventsSent", 1100L, "bytesSent", 286_000L, "datagrams", 400L, "overflowDrops", 2L),
                    "cc", Map.of("eventsSent", 1200L)));

    private static ControlFrame decode(byte[] frame) {
        return ControlCodec.decode(ByteBuffer.wrap(frame, 4, frame.length - 4));
    }

    @Test
    void roundTripsEveryValueUnderItsName() {
        ControlFrame f = decode(ControlCodec.encode(9, REPORT));
        assertTrue(f.valid(), f.toString());
        assertEquals(9, f.sequence());
        assertEquals(REPORT, f.message());
        RouterReport r = (RouterReport) f.message();
        assertEquals(3L, r.drops().get("CHECKSUM_MISMATCH"));
        assertEquals(286_000L, r.links().get("r2").get("bytesSent"));
        assertEquals(Map.of(), ((RouterReport) decode(ControlCodec.encode(1,
                new RouterReport(0, Map.of(), Map.of(), Map.of()))).message()).links());
    }

    @Test
    void theLargestReportAllowedFitsOneFrame() {
        Map<String, Long> full = new LinkedHashMap<>();
        for (int i = 0; i < RouterReport.MAX_VALUES; i++) {
            full.put(("v" + i + "x".repeat(RouterReport.MAX_NAME)).substring(0, RouterReport.MAX_NAME), Long.MAX_VALUE);
        }
        Map<String, Map<String, Long>> links = new LinkedHashMap<>();
        for (int i = 0; i < RouterReport.MAX_LINKS; i++) {
            links.put(("l" + i + "y".repeat(RouterReport.MAX_LINK_NAME)).substring(0, RouterReport.MAX_LINK_NAME), full);
        }
        RouterReport big = new RouterReport(1, full, full, links);
        ControlFrame f = decode(ControlCodec.encode(1, big));
        assertTrue(f.valid(), f.toString());
        assertEquals(big, f.message());
    }

    @Test
    void refusesNegativeCountsTooManyValuesAndRepeatedNames() {
        assertThrows(IllegalArgumentException.class, () -> new RouterReport(1, Map.of("received", -1L), Map.of(), Map.of()));
        Map<String, Long> tooMany = new LinkedHashMap<>();
        for (int i = 0; i <= RouterReport.MAX_VALUES; i++) {
            tooMany.put("v" + i, 1L);
        }
        assertThrows(IllegalArgumentException.class, () -> new RouterReport(1, tooMany, Map.of(), Map.of()));
        assertThrows(IllegalArgumentException.class, () -> new RouterReport(1, Map.of("x".repeat(RouterReport.MAX_NAME + 1),
                1L), Map.of(), Map.of()));
        assertThrows(IllegalArgumentException.class, () -> new RouterReport(1, Map.of(), Map.of(),
                Map.of("l".repeat(RouterReport.MAX_LINK_NAME + 1), Map.of())));

        RouterReport one = new RouterReport(1, Map.of("received", 5L), Map.of(), Map.of());
        byte[] negative = ControlCodec.encode(1, one);
        // header 4 + 10, time 8, count 2, name 2 + 8: the value
        ByteBuffer.wrap(negative).putLong(4 + 10 + 8 + 2 + 2 + 8, -5);
        ControlFrame f = decode(negative);
        assertEquals(Reject.BAD_FIELD, f.reject(), f.toString());

        RouterReport two = new RouterReport(1, Map.of("aaaa", 5L, "bbbb", 6L), Map.of(), Map.of());
        byte[] repeated = ControlCodec.encode(1, two);
        String text = new String(repeated, java.nio.charset.StandardCharsets.ISO_8859_1).replace("bbbb", "aaaa");
        assertEquals(Reject.BAD_FIELD, decode(text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)).reject());

        byte[] cut = ControlCodec.encode(1, REPORT);
        assertEquals(Reject.TRUNCATED, ControlCodec.decode(ByteBuffer.wrap(cut, 4, cut.length - 10)).reject());
    }
}
