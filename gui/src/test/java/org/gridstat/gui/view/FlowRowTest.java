package org.gridstat.gui.view;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.gridstat.gui.feed.Resource;
import org.gridstat.gui.feed.ResourceParser;
import org.gridstat.gui.model.ConsoleModel;
import org.gridstat.gui.model.Flow;
import org.junit.jupiter.api.Test;

/**
 * The flow table's lines from the broker's {@code GET /flows} as the console parses it: AR, MR and
 * CR as the broker gives them, what reassignment moved the assured rate by and how many times, a
 * hold, the latency p99 at the flow's router, deadline misses and drops; "—" (null) for what a
 * report has not given yet, or a broker does not give.
 */
class FlowRowTest {
    private static final String FLOWS = """
            [{"router":"r1","flowId":1,"version":1,"variableId":7,"link":"r2","serviceClass":"LRT",
              "assuredBytesPerSecond":4000,"minimumBytesPerSecond":2000,"ceilingBytesPerSecond":8000,"intervalsNanos":[20000000],
              "statistics":{"reportedAtMillis":1000,"eventsSent":10,"bytesSent":600,"overflowDrops":3,"deadlineMisses":2,
                "backlog":1,"arrivalBytesPerSecond":3000,"departureBytesPerSecond":2500,"demandBytesPerSecond":3100,
                "state":"STABLE","assuredInForceBytesPerSecond":2500,"shortfallBytesPerSecond":0,"heldRateHz":10,
                "latencyP99Micros":1834,"reassignments":6}},
             {"router":"r2","flowId":2,"version":1,"variableId":7,"link":"cc","serviceClass":"HRT",
              "assuredBytesPerSecond":4000,"minimumBytesPerSecond":4000,"ceilingBytesPerSecond":8000,"intervalsNanos":[20000000],
              "statistics":{"reportedAtMillis":1000,"eventsSent":10,"bytesSent":600,"overflowDrops":0,"deadlineMisses":0,
                "backlog":0,"arrivalBytesPerSecond":5000,"departureBytesPerSecond":5000,"demandBytesPerSecond":5200,
                "state":"CONGESTED","assuredInForceBytesPerSecond":5500,"shortfallBytesPerSecond":0,"heldRateHz":0,
                "latencyP99Micros":0,"reassignments":1}},
             {"router":"r3","flowId":3,"version":1,"variableId":7,"link":"cc","serviceClass":"BE",
              "assuredBytesPerSecond":1000,"ceilingBytesPerSecond":2000,"intervalsNanos":[20000000]}]
            """;

    private static List<FlowRow> rows() {
        ConsoleModel model = new ConsoleModel(() -> 2_000);
        model.received(Resource.FLOWS, new ResourceParser().parse(Resource.FLOWS, FLOWS), 1_500);
        return FlowRow.of(model.snapshot());
    }

    @Test
    void aFlowShowsItsRatesItsReassignmentAndItsLosses() {
        List<FlowRow> rows = rows();
        FlowRow lent = rows.get(0);
        assertEquals(4000L, lent.assured());
        assertEquals(2000L, lent.minimum(), "MR as the broker gives it");
        assertEquals(8000L, lent.ceiling());
        assertEquals(-1500L, lent.reassigned(), "lent 1.5 kB/s of its reservation");
        assertEquals("−1.5 kB/s", Shown.reassigned(lent.reassigned()));
        assertEquals(10.0, lent.heldRateHz());
        assertEquals(2L, lent.deadlineMisses());
        assertEquals(3L, lent.overflowDrops());
        FlowRow granted = rows.get(1);
        assertEquals(4000L, granted.minimum(), "an HRT flow keeps all of its reservation");
        assertEquals(1500L, granted.reassigned());
        assertEquals("+1.5 kB/s", Shown.reassigned(granted.reassigned()));
        assertEquals(0.0, granted.heldRateHz());
        assertEquals("none", Shown.reassigned(0L));
    }

    @Test
    void aFlowShowsItsLatencyP99AtItsRouterAndItsReassignmentsAsTheBrokerGivesThem() {
        List<FlowRow> rows = rows();
        assertEquals(1_834L, rows.get(0).latencyP99Micros());
        assertEquals("1.83 ms", Shown.latency(rows.get(0).latencyP99Micros()));
        assertEquals(6L, rows.get(0).reassignments());
        assertEquals(0L, rows.get(1).latencyP99Micros());
        assertEquals("idle", Shown.latency(0L), "nothing sent in the period: no latency measured, not a latency of 0");
        assertEquals(1L, rows.get(1).reassignments());
        assertEquals("850 µs", Shown.latency(850L));
        assertEquals("≤ 1 µs", Shown.latency(1L), "below the router's resolution");
        assertEquals("2.3 s", Shown.latency(2_300_000L));
        assertNull(rows.get(2).latencyP99Micros(), "no report yet");
        assertNull(rows.get(2).reassignments());

        // a broker that predates them reports the other figures only: "—", not 0
        String older = FLOWS.replaceAll(",\\s*\"latencyP99Micros\":\\d+,\"reassignments\":\\d+", "");
        assertNotEquals(FLOWS, older);
        ConsoleModel model = new ConsoleModel(() -> 2_000);
        model.received(Resource.FLOWS, new ResourceParser().parse(Resource.FLOWS, older), 1_500);
        FlowRow row = FlowRow.of(model.snapshot()).get(0);
        assertEquals(10.0, row.heldRateHz());
        assertNull(row.latencyP99Micros());
        assertNull(row.reassignments());
        assertEquals(Shown.NONE, Shown.latency(null));
    }

    @Test
    void beforeItsFirstReportAFlowShowsDashesAndABrokerWithoutMrTooForMr() {
        FlowRow unreported = rows().get(2);
        assertNull(unreported.minimum());
        assertNull(unreported.reassigned());
        assertNull(unreported.heldRateHz());
        assertNull(unreported.deadlineMisses());
        assertEquals(Shown.NONE, Shown.reassigned(null));
        Flow f = (Flow) ((List<?>) new ResourceParser().parse(Resource.FLOWS, FLOWS)).get(2);
        assertNull(f.minimumBytesPerSecond());
    }
}
