package org.gridstat.sim.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.gridstat.sim.Simulation;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.metrics.FlowInterval;
import org.gridstat.sim.reproduce.Idsrt.Figures;
import org.gridstat.sim.reproduce.Idsrt.Stretch;
import org.gridstat.sim.reproduce.Idsrt.Variant;
import org.junit.jupiter.api.Test;

/**
 * iDSRT, short: a stream tried every second, then 10 s with the admitted ones (scripts/reproduce:
 * every 5 s, then 60 s); best effort offers 70 % of the link throughout.
 */
class ReproIdsrtTest {
    static final double BE = Idsrt.BEST_EFFORT_LOAD;

    @Test
    void theBandwidthTestAdmitsThirteenStreamsAndRefusesTheFourteenth() {
        // 13 x 5,200 B/s fill 67,600 of the HRT class's 70,000; a 14th would need 72,800.
        assertEquals(70_000, Idsrt.CAPACITY / 2);
        Figures f = Idsrt.run(Variant.edf(BE, 1, 10));
        assertEquals(13, f.admitted());
        assertTrue(f.refusal().contains("class HRT"), f.refusal());
    }

    @Test
    void underEdfWithAdmissionNoAdmittedStreamMissesADeadline() {
        Variant v = Variant.edf(BE, 1, 10);
        Figures f = Idsrt.run(v);
        for (Stretch s : f.steps()) {
            assertEquals(0, s.late() + s.routerDrops(), s.toString());
            assertTrue(s.maxLatencyMs() < 30, s.toString());
        }
        Stretch all = f.settled();
        assertEquals(13, all.streams());
        assertEquals(0, all.late() + all.routerDrops(), all.toString());
        assertEquals(all.offered(), all.delivered(), 13, "every sample arrives, each stream's last perhaps after the stretch");
        assertTrue(all.maxLatencyMs() < 20, "a best-effort frame on the wire (10.7 ms) and the streams ahead: " + all);
        SimulationResult r = Simulation.run(Idsrt.scenario(v));
        for (FlowInterval s : r.summaries()) {
            assertEquals(0, s.late() + s.deadlineMisses() + s.overflowDrops(), s.toString());
            assertTrue(s.delivered() >= s.offered() - 1, s.toString());
        }
    }

    @Test
    void bestEffortForEveryoneDelaysTheStreamsByHundredsOfMillisecondsAndMissesTheirDeadlines() {
        Figures f = Idsrt.run(Variant.bestEffort(BE, 1, 10));
        assertEquals(13, f.admitted(), "bandwidth admission is the same");
        Stretch all = f.settled();
        assertTrue(all.meanLatencyMs() > 90, all.toString());
        assertTrue(all.maxLatencyMs() > 150, all.toString());
        assertTrue(all.missRatio() > 0.9, all.toString());
        assertTrue(f.steps().get(0).missRatio() < f.steps().get(12).missRatio(), "misses grow with the streams");
    }
}
