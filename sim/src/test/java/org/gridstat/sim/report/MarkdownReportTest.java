package org.gridstat.sim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.metrics.FlowInterval;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MarkdownReportTest {
    @TempDir
    Path dir;

    @Test
    void thePageHoldsTheAdmissionsEachSubscriptionLinkAndRawSourceAndThePlots() {
        String page = MarkdownReport.render(CsvReportTest.handMade(), List.of("latency.png", "drops.png"));
        assertEquals("""
                # Simulation: line

                Seed 42, 1.500000 s simulated, 12345 events run.

                ## Admissions

                | subscription | outcome |
                |---|---|
                | a,b "x" | admitted |
                | big | refused: link r1->r2 class HRT: needs 2.3 kbit/s \\| 0.0 kbit/s free |
                | cc | admitted |

                ## Subscriptions

                | subscription | offered | delivered | delivered % | late | overflow drops | deadline misses | copies lost | latency p50 ms | p99 ms | max ms |
                |---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|
                | a,b "x" | 10 | 0 | 0.00 | 0 | 10 | 0 | 0 | 0.000 | 0.000 | 0.000 |
                | cc | 90 | 89 | 98.89 | 1 | 2 | 3 | 4 | 7.306 | 7.400 | 12.346 |

                ## Links

                | link | datagrams sent | delivered | lost in queue | lost on wire | lost while down | packets on wire | bytes on wire | bytes/s |
                |---|--:|--:|--:|--:|--:|--:|--:|--:|
                | r1->r2 | 200 | 190 | 6 | 3 | 1 | 260 | 170000 | 113333.333 |
                | r2/cc | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0.000 |

                ## Raw sources

                | source | sent | bytes sent | delivered | bytes delivered | delivered % |
                |---|--:|--:|--:|--:|--:|
                | cross | 60 | 57000 | 45 | 42750 | 75.00 |

                ## Plots

                ![latency](latency.png)

                ![drops](drops.png)

                """, page);
    }

    @Test
    void theFiguresOfARunAreOnItsPage() throws IOException {
        SimulationResult r = Runs.noisy(3);
        Path file = MarkdownReport.write(r, dir, List.of());
        String page = Files.readString(file);
        assertEquals(dir.resolve("report.md"), file);
        assertTrue(page.contains("| too-fast | refused: "), page);
        FlowInterval cc = r.summary("cc");
        String row = "| cc | " + cc.offered() + " | " + cc.delivered() + " | " + Units.percent(cc.delivered(), cc.offered())
                + " | " + cc.late() + " | " + cc.overflowDrops() + " | " + cc.deadlineMisses() + " | " + cc.copiesLost()
                + " | " + Units.millis(cc.latencyP50Nanos()) + " | " + Units.millis(cc.latencyP99Nanos()) + " | "
                + Units.millis(cc.latencyMaxNanos()) + " |";
        assertTrue(page.contains(row), row + "\n" + page);
        assertEquals(300, cc.offered(), "60 Hz for 5 s");
        SimulationResult.RawFigures cross = r.raw().get("cross");
        assertTrue(page.contains("| cross | " + cross.sent() + " | " + cross.sentBytes() + " | " + cross.delivered() + " | "),
                page);
        assertTrue(page.contains("| r1->r2 | " + r.links().get("r1->r2").datagramsSent() + " | "), page);
        assertTrue(MarkdownReport.summaryTable(r).startsWith("| subscription | offered |"));
        assertEquals(page, MarkdownReport.render(Runs.noisy(3), List.of()), "the same run, the same page");
    }
}
