package org.gridstat.gui.model;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A flow's latency p99 charted a point per report of a period in which it sent; links have none. */
class ChartHistoryTest {
    private static Flow flow(long reportedAt, Long latencyMicros) {
        return new Flow("r1", 1, 1, 7, "r2", "HRT", 4_000, 4_000L, 8_000, List.of(20_000_000L),
                new FlowStatistics(reportedAt, 10, 600, 0, 0, 0, 3_000, 3_000, 3_000, "STABLE", 4_000, 0, 0,
                        latencyMicros, 0L));
    }

    @Test
    void aFlowsLatencyIsAPointPerNewReportOfAPeriodInWhichItSent() {
        ChartHistory h = new ChartHistory();
        h.flow(flow(1_000, 1_834L), 1_000);
        h.flow(flow(1_000, 1_834L), 1_100); // the same report again (a pulse without a new one): no point
        h.flow(flow(1_250, 0L), 1_300); // nothing sent in that period: no latency measured, no point
        h.flow(flow(1_500, 250L), 1_600);
        h.flow(flow(1_750, null), 1_800); // a broker that does not give it
        ChartHistory.Trace t = h.trace(ChartHistory.flowKey(new FlowKey("r1", 1)));
        SeriesHistory.Points p = t.latency.since(0);
        assertArrayEquals(new long[] {1_000, 1_500}, p.timesMillis());
        assertArrayEquals(new double[] {1_834, 250}, p.values());
        assertEquals(4, t.throughput.since(0).size(), "the other figures take every report");

        h.counters(List.of(new RouterCounters("r1", true, "2026-09-21T14:13:20Z", Map.of(), Map.of(),
                Map.of("r2", new RouterCounters.LinkCounters(10, 600, 0, 0, 0, 1)))), 2_000);
        assertEquals(0, h.trace(ChartHistory.linkKey("r1", "r2")).latency.since(0).size(), "the routers report latency per flow");
    }

    @Test
    void theHistoryIsBoundedInTracesAndSoInMemory() {
        long bytesPerTrace = 4L * ChartHistory.CAPACITY * (Long.BYTES + Double.BYTES);
        assertTrue(ChartHistory.MAX_SERIES * bytesPerTrace <= 80L << 20,
                "at most " + ChartHistory.MAX_SERIES * bytesPerTrace / (1 << 20) + " MB of points");
        ChartHistory h = new ChartHistory();
        for (int i = 1; i <= ChartHistory.MAX_SERIES + 10; i++) { // all fresh: none can be forgotten
            h.flow(new Flow("r1", i, i, 7, "r2", "HRT", 4_000, 4_000L, 8_000, List.of(20_000_000L),
                    new FlowStatistics(1_000, 10, 600, 0, 0, 0, 3_000, 3_000, 3_000, "STABLE", 4_000, 0, 0, 5L, 0L)), 1_000);
        }
        assertNotNull(h.trace(ChartHistory.flowKey(new FlowKey("r1", ChartHistory.MAX_SERIES))));
        assertNull(h.trace(ChartHistory.flowKey(new FlowKey("r1", ChartHistory.MAX_SERIES + 1))), "beyond the bound: not kept");
        h.flow(new Flow("r1", 99_999, 99_999, 7, "r2", "HRT", 4_000, 4_000L, 8_000, List.of(20_000_000L),
                new FlowStatistics(1_000 + SeriesHistory.WINDOW_MILLIS + 1, 10, 600, 0, 0, 0, 3_000, 3_000, 3_000, "STABLE",
                        4_000, 0, 0, 5L, 0L)), 1_000 + SeriesHistory.WINDOW_MILLIS + 1);
        assertNotNull(h.trace(ChartHistory.flowKey(new FlowKey("r1", 99_999))), "once the old ones are past the window, a new one is");
    }

    @Test
    void aRouterWhoseClockWasSetBackIsChartedAgainFromItsNewReports() {
        // an hour ahead, then set right: its new reports were older than the last point and dropped,
        // the chart frozen until its clock caught up
        ChartHistory h = new ChartHistory();
        long t = 1_800_000_000_000L;
        h.flow(flow(t + 3_600_000, 900L), t);
        h.flow(flow(t + 1_000, 250L), t + 1_000);
        h.flow(flow(t + 2_000, 300L), t + 2_000);
        ChartHistory.Trace trace = h.trace(ChartHistory.flowKey(new FlowKey("r1", 1)));
        assertArrayEquals(new long[] {t + 1_000, t + 2_000}, trace.latency.since(0).timesMillis());
        assertArrayEquals(new double[] {250, 300}, trace.latency.since(0).values());
        assertEquals(t + 2_000, trace.throughput.lastTime());
        h.flow(flow(t + 1_500, 999L), t + 2_100); // a report merely late is still not charted
        assertEquals(t + 2_000, trace.latency.lastTime());
    }
}
