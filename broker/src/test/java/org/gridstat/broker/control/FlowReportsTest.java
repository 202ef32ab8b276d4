package org.gridstat.broker.control;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.gridstat.core.control.ControlMessage.FlowReport;
import org.gridstat.core.control.ControlMessage.FlowSample;
import org.junit.jupiter.api.Test;

/** What a router's flow reports may change: its own flows only, and never back in time. */
class FlowReportsTest {
    private static final long T = 1_790_000_000_000L;
    private final FlowReports reports = new FlowReports();
    private final List<Long> shortFlows = new ArrayList<>();

    private static FlowReport report(long time, long flowId, long shortfall) {
        return new FlowReport(time, List.of(new FlowSample(flowId, 1, 288, 0, 0, 0, 5_760, 5_760, 5_760 + shortfall, 5_760,
                shortfall)));
    }

    private int accept(FlowReport r) {
        return reports.accept("r1", r, Map.of(7L, "installed"), s -> shortFlows.add(s.flowId()));
    }

    @Test
    void aShortfallIsToldOnceWhenItAppearsAndAgainAfterItWasMet() {
        accept(report(T, 7, 2_880));
        accept(report(T + 1_000, 7, 3_000));
        accept(report(T + 2_000, 7, 0));
        accept(report(T + 3_000, 7, 1_000));
        assertEquals(List.of(7L, 7L), shortFlows);
        assertEquals(1_000, reports.latest("r1", 7).sample().shortfall());
    }

    @Test
    void aForgedSampleOfAFlowTheRouterDoesNotHoldIsIgnoredAndCounted() {
        assertEquals(1, accept(report(T, 8, 99_999)));
        assertNull(reports.latest("r1", 8));
        assertEquals(List.of(), shortFlows, "no alarm for a flow the broker did not install there");
    }

    @Test
    void aReportOlderThanTheOneKeptIsIgnoredAndCannotRaiseAClearedAlarm() {
        accept(report(T + 2_000, 7, 0));
        assertEquals(1, accept(report(T + 1_000, 7, 5_000)), "delayed or replayed");
        assertEquals(0, reports.latest("r1", 7).sample().shortfall());
        assertEquals(T + 2_000, reports.latest("r1", 7).timeMillis());
        assertEquals(List.of(), shortFlows);
    }

    @Test
    void aRouterWhoseClockWasSetBackIsNotIgnoredUntilItCatchesUp() {
        // an hour ahead, then set right (NTP, or the router restarted with its clock corrected): its
        // reports were all ignored for that hour, its flows' figures and shortfalls unseen
        accept(report(T + 3_600_000, 7, 0));
        assertEquals(0, accept(report(T, 7, 2_880)), "no report is delayed an hour: the router's clock was set back");
        assertEquals(T, reports.latest("r1", 7).timeMillis());
        assertEquals(List.of(7L), shortFlows, "its shortfall is seen");
        assertEquals(0, accept(report(T + 1_000, 7, 2_880)));
        assertEquals(T + 1_000, reports.latest("r1", 7).timeMillis());
    }
}
