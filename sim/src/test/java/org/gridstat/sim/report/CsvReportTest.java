package org.gridstat.sim.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.metrics.FlowInterval;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvReportTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;

    @TempDir
    Path dir;

    static SimulationResult handMade() {
        List<FlowInterval> rows = List.of(
                new FlowInterval("cc", 0, S, 60, 59, 1, 2, 3, 4, 7_306_304, 7_400_000, 12_345_678, 0, 0),
                new FlowInterval("cc", S, 1_500 * MS, 30, 30, 0, 0, 0, 0, 7_306_304, 7_306_304, 7_306_304, 0, 0),
                new FlowInterval("a,b \"x\"", 0, S, 10, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0));
        return new SimulationResult("line", 42, 1_500 * MS, Map.of("cc", "admitted", "a,b \"x\"", "admitted",
                "big", "refused: link r1->r2 class HRT: needs 2.3 kbit/s | 0.0 kbit/s free"), rows,
                List.of(new FlowInterval("cc", 0, 1_500 * MS, 90, 89, 1, 2, 3, 4, 7_306_304, 7_400_000, 12_345_678, 0, 0),
                        new FlowInterval("a,b \"x\"", 0, 1_500 * MS, 10, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0)),
                Map.of("cross", new SimulationResult.RawFigures(60, 57_000, 45, 42_750)),
                Map.of("r1->r2", new SimulationResult.LinkFigures(200, 190, 6, 3, 1, 260, 170_000),
                        "r2/cc", new SimulationResult.LinkFigures(0, 0, 0, 0, 0, 0, 0)), 12_345);
    }

    @Test
    void rowsAreFixedDecimalsWhateverTheLocale() {
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.GERMANY);
        try {
            SimulationResult r = handMade();
            assertEquals("""
                    scenario,seed,subscription,from_s,to_s,offered,delivered,late,overflow_drops,deadline_misses,copies_lost,latency_p50_ms,latency_p99_ms,latency_max_ms
                    line,42,cc,0.000000,1.000000,60,59,1,2,3,4,7.306,7.400,12.346
                    line,42,cc,1.000000,1.500000,30,30,0,0,0,0,7.306,7.306,7.306
                    line,42,"a,b ""x\""",0.000000,1.000000,10,0,0,10,0,0,0.000,0.000,0.000
                    """, CsvReport.flows(r));
            assertEquals("""
                    scenario,seed,link,datagrams_sent,datagrams_delivered,lost_queue,lost_wire,lost_down,packets_on_wire,bytes_on_wire,wire_bytes_per_s
                    line,42,r1->r2,200,190,6,3,1,260,170000,113333.333
                    line,42,r2/cc,0,0,0,0,0,0,0,0.000
                    """, CsvReport.links(r));
            assertEquals("""
                    scenario,seed,source,sent,sent_bytes,delivered,delivered_bytes,delivered_pct
                    line,42,cross,60,57000,45,42750,75.00
                    """, CsvReport.raw(r));
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void theSameScenarioAndSeedGiveTheSameBytes() throws IOException {
        List<Path> first = CsvReport.write(Runs.noisy(3), dir.resolve("a"));
        List<Path> second = CsvReport.write(Runs.noisy(3), dir.resolve("b"));
        assertEquals(List.of("flows.csv", "links.csv", "raw.csv"), first.stream().map(p -> p.getFileName().toString()).toList());
        for (int i = 0; i < first.size(); i++) {
            assertArrayEquals(Files.readAllBytes(first.get(i)), Files.readAllBytes(second.get(i)), first.get(i).toString());
        }
        List<String> flows = Files.readAllLines(first.get(0));
        assertEquals(CsvReport.FLOWS_HEADER, flows.get(0));
        assertEquals(1 + 2 * 5, flows.size(), "two admitted subscriptions (too-fast asks above the publisher's rate),"
                + " five intervals each");
        assertTrue(flows.get(1).startsWith("noisy,3,cc,0.000000,1.000000,"), flows.get(1));
        assertTrue(flows.get(6).startsWith("noisy,3,ops,0.000000,1.000000,"), flows.get(6));
    }

    @Test
    void anotherSeedChangesWhatTheSeedDraws() throws IOException {
        SimulationResult a = Runs.noisy(3);
        SimulationResult b = Runs.noisy(4);
        assertNotEquals(CsvReport.flows(a).replace("noisy,3,", ""), CsvReport.flows(b).replace("noisy,4,", ""),
                "the jitter and the losses differ");
        assertNotEquals(a.raw().get("cross").sent(), b.raw().get("cross").sent(), "Poisson gaps");
        assertFalse(CsvReport.links(a).equals(CsvReport.links(b)));
    }
}
