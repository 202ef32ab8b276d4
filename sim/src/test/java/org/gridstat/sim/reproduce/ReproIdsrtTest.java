package org.gridstat.sim.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.gridstat.sim.Simulation;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.metrics.FlowInterval;
import org.gridstat.sim.reproduce.Idsrt.Figures;
import org.gridstat.sim.reproduce.Idsrt.Stretch;
import org.gridstat.sim.reproduce.Idsrt.Variant;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.gridstat.sim.scenario.Scenario;
import org.gridstat.sim.scenario.ScenarioFile;
import org.junit.jupiter.api.Test;

/**
 * iDSRT, short: a stream tried every second, then 10 s with the admitted ones (scripts/reproduce:
 * every 5 s, then 60 s); best effort offers 110 % of the link throughout.
 */
class ReproIdsrtTest {
    static final double BE = Idsrt.BEST_EFFORT_LOAD;

    @Test
    void theDeadlineTestAdmitsThirteenStreamsWhereBandwidthWouldTakeTwentyThree() {
        // The HRT class's 120,000 B/s hold 23 streams of 5,200 B/s; the hop deadline holds 13.
        assertEquals(23, Idsrt.CAPACITY * Idsrt.HRT_PERCENT / 100 / 5_200);
        Figures f = Idsrt.run(Variant.edf(BE, 1, 10));
        assertEquals(13, f.admitted());
        assertTrue(f.refusal().startsWith("refused: link apps->sink, HRT: in the first 19.4 ms after a busy period starts"
                + " the flows need 19.5 ms of transmission"), f.refusal());
    }

    @Test
    void underEdfWithAdmissionNoAdmittedStreamMissesADeadline() {
        Variant v = Variant.edf(BE, 1, 10);
        Figures f = Idsrt.run(v);
        for (Stretch s : f.steps()) {
            assertEquals(0, s.late() + s.routerDrops(), s.toString());
            assertTrue(s.maxLatencyMs() < 3.9, s.toString());
        }
        Stretch all = f.settled();
        assertEquals(13, all.streams());
        assertEquals(0, all.late() + all.routerDrops(), all.toString());
        assertEquals(all.offered(), all.delivered(), 13, "every sample arrives, each stream's last perhaps after the stretch");
        // 1 ms of propagation, a best-effort datagram on the wire (1.3 ms), its own frame and the other
        // twelve streams' ahead of it at the link's rate (0.13 ms each): at most 3.9 ms.
        assertTrue(all.maxLatencyMs() < 3.9, all.toString());
        SimulationResult r = Simulation.run(Idsrt.scenario(v));
        for (FlowInterval s : r.summaries()) {
            assertEquals(0, s.late() + s.deadlineMisses() + s.overflowDrops(), s.toString());
            assertTrue(s.delivered() >= s.offered() - 1, s.toString());
        }
    }

    @Test
    void bestEffortForEveryoneDelaysTheStreamsByHundredsOfMillisecondsAndMissesTheirDeadlines() {
        Figures f = Idsrt.run(Variant.bestEffort(BE, 1, 10));
        assertEquals(13, f.admitted(), "the same 13 streams, admitted by bandwidth");
        Stretch all = f.settled();
        // Best effort keeps the 400-packet FIFO full: half a second of 1,500-byte packets at the link's rate.
        assertTrue(all.meanLatencyMs() > 300 && all.maxLatencyMs() < 510, all.toString());
        assertTrue(all.missRatio() > 0.99, all.toString());
        assertTrue(f.steps().get(0).meanLatencyMs() < f.steps().get(12).meanLatencyMs(), "delays grow as the FIFO fills");
    }

    /** The shipped scenario files are the scenarios built in code, field by field. */
    @Test
    void theShippedFilesAreTheScenariosBuiltInCode() {
        Reproductions.Length l = Reproductions.Length.FULL;
        for (Variant v : List.of(Variant.edf(BE, l.idsrtStepSeconds, l.idsrtSettleSeconds),
                Variant.bestEffort(BE, l.idsrtStepSeconds, l.idsrtSettleSeconds))) {
            Scenario built = Idsrt.scenario(v);
            Scenario file = ScenarioFile.load(Path.of("scenarios", built.name() + ".yaml"), Map.of());
            assertEquals(built.topology().toText(), file.topology().toText(), built.name());
            assertEquals(List.of(built.name(), built.durationNanos(), built.reportIntervalNanos(), built.seed(),
                            built.admission(), built.links(), built.variables(), built.subscriptions(), built.rawSources(),
                            built.timeline()),
                    List.of(file.name(), file.durationNanos(), file.reportIntervalNanos(), file.seed(), file.admission(),
                            file.links(), file.variables(), file.subscriptions(), file.rawSources(), file.timeline()),
                    built.name());
        }
    }
}
