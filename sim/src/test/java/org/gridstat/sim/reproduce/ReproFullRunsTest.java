package org.gridstat.sim.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.gridstat.sim.net.LinkModel;
import org.gridstat.sim.reproduce.Fragmentation.Arrivals;
import org.gridstat.sim.reproduce.Fragmentation.Figures;
import org.gridstat.sim.reproduce.Fragmentation.Variant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The reproductions at full length, as docs/reproductions.md reports them: left out of the default
 * test run (the "reproduction" tag; sim/pom.xml), run by scripts/reproduce. Writes the tables to
 * {@code target/reproductions.md}.
 */
@Tag("reproduction")
class ReproFullRunsTest {
    @Test
    void fragmentationOverFiveMinutesOfSending() {
        long seconds = Reproductions.Length.FULL.fragmentationSeconds;
        Figures collapse = Fragmentation.run(Variant.shdsl(LinkModel.Discipline.FIFO, 1.2, Arrivals.ALIGNED_PMUS, seconds));
        assertTrue(collapse.goodput() < 0.05, collapse.toString());
        for (double overload : new double[] {1.1, 1.2}) {
            for (LinkModel.Discipline d : new LinkModel.Discipline[] {LinkModel.Discipline.DATAGRAM_FIFO,
                    LinkModel.Discipline.SCHEDULER}) {
                for (Arrivals a : Arrivals.values()) {
                    Figures f = Fragmentation.run(Variant.shdsl(d, overload, a, seconds));
                    assertEquals(f.boundGoodput(), f.goodput(), 0.02, f.toString());
                }
            }
        }
        for (double overload : new double[] {1.1, 1.2}) {
            Figures tail = Fragmentation.run(Variant.of(LinkModel.Discipline.FIFO, overload, Arrivals.DRIFTING_PMUS,
                    Reproductions.Length.FULL.fragmentationSeconds));
            assertTrue(tail.goodput() < tail.boundGoodput() - 0.08, tail.toString());
            for (LinkModel.Discipline d : new LinkModel.Discipline[] {LinkModel.Discipline.DATAGRAM_FIFO,
                    LinkModel.Discipline.SCHEDULER}) {
                for (Arrivals a : Arrivals.values()) {
                    Figures f = Fragmentation.run(Variant.of(d, overload, a, Reproductions.Length.FULL.fragmentationSeconds));
                    assertEquals(f.boundGoodput(), f.goodput(), 0.02, f.toString());
                }
            }
        }
    }

    @Test
    void idsrtWithAStreamEveryFiveSeconds() {
        Reproductions.Length l = Reproductions.Length.FULL;
        Idsrt.Figures edf = Idsrt.run(Idsrt.Variant.edf(Idsrt.BEST_EFFORT_LOAD, l.idsrtStepSeconds,
                l.idsrtSettleSeconds));
        assertEquals(13, edf.admitted());
        for (Idsrt.Stretch s : edf.steps()) {
            assertEquals(0, s.late() + s.routerDrops(), s.toString());
        }
        assertEquals(0, edf.settled().late() + edf.settled().routerDrops(), edf.settled().toString());
        Idsrt.Figures fifo = Idsrt.run(Idsrt.Variant.bestEffort(Idsrt.BEST_EFFORT_LOAD, l.idsrtStepSeconds,
                l.idsrtSettleSeconds));
        assertTrue(fifo.settled().meanLatencyMs() > 90 && fifo.settled().missRatio() > 0.9, fifo.settled().toString());
    }

    @Test
    void theTablesOfDocsReproductions() throws Exception {
        String report = Reproductions.report(Reproductions.Length.FULL);
        Path out = Path.of("target", "reproductions.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report, StandardCharsets.UTF_8);
        System.out.print(report);
        assertTrue(report.contains("### CCC testbed"), report);
    }
}
