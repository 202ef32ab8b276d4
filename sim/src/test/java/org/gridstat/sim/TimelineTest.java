package org.gridstat.sim;

import static org.gridstat.sim.Scenarios.MS;
import static org.gridstat.sim.Scenarios.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.sim.metrics.FlowInterval;
import org.gridstat.sim.net.LinkModel;
import org.gridstat.sim.scenario.Scenario;
import org.junit.jupiter.api.Test;

/** What the timeline does to a run, and how the outputs tell it. */
class TimelineTest {
    private static final long I = S / 20;

    private static Scenario line(List<Scenario.RawSource> raw, List<Scenario.Change> timeline) {
        return Scenarios.scenario(Scenarios.line(125_000, 5 * MS), 10 * S, Map.of(),
                List.of(Scenarios.variable("pmu", "r1", 260, I, ServiceClass.HRT, 50 * MS)),
                List.of(Scenarios.subscription("cc", "pmu", "r2", I, 50 * MS, ServiceClass.HRT)), raw, timeline);
    }

    @Test
    void aTornDownSubscriptionsRowsEndWhenItDid() {
        SimulationResult r = Simulation.run(line(List.of(), List.of(new Scenario.Unsubscribe(5 * S + S / 2, "cc"))));
        List<FlowInterval> rows = r.rows();
        assertEquals(6, rows.size(), "0-1, ..., 4-5 and 5-5.5 s: " + rows);
        FlowInterval last = rows.get(5);
        assertEquals(5 * S, last.fromNanos());
        assertEquals(5 * S + S / 2, last.toNanos());
        FlowInterval sum = r.summary("cc");
        assertEquals(110, sum.offered(), "published from 1 ms every 50 ms until 5.5 s");
        assertEquals(sum.offered(), sum.delivered(), "each arrives 7.3 ms after it left: " + sum);
    }

    @Test
    void aRawSourceSendsAgainOnceItsRouterRestartsAndNothingArrivesAtARouterThatIsDown() {
        Scenario.RawSource cross = new Scenario.RawSource("cross", "r1", "r2", List.of(500), 10 * MS, false, 0, 0, 10);
        SimulationResult r = Simulation.run(line(List.of(cross), List.of(new Scenario.RouterState(3 * S, "r1", false),
                new Scenario.RouterState(4 * S, "r1", true))));
        SimulationResult.RawFigures f = r.raw().get("cross");
        assertEquals(1000, f.sent(), "every 10 ms from 0, before the end at 10 s");
        assertTrue(f.delivered() >= 898 && f.delivered() <= 901, "1 s of 10 lost, not the 6 s after: " + f);

        // A raw datagram whose far end is a router that is down does not arrive.
        SimulationResult down = Simulation.run(line(List.of(cross), List.of(new Scenario.RouterState(3 * S, "r2", false),
                new Scenario.RouterState(4 * S, "r2", true))));
        SimulationResult.RawFigures g = down.raw().get("cross");
        assertTrue(g.delivered() >= 898 && g.delivered() <= 901, "the second of r2's outage lost: " + g);
    }

    @Test
    void aCrashLosesWhatTheRouterHoldsCountedAgainstTheSubscription() {
        // Every sample waits 5 ms in r1 behind a slow delivery, so a crash finds one queued.
        SimulationResult r = Simulation.run(line(List.of(), List.of(new Scenario.RouterState(3 * S + 1, "r1", false),
                new Scenario.RouterState(3 * S + S / 2, "r1", true))));
        FlowInterval third = r.rows().get(3);
        assertEquals(20, third.offered());
        assertTrue(third.copiesLost() >= 10, "the half second's samples refused by r1 while down: " + third);
        assertEquals(third.offered(), third.delivered() + third.copiesLost(), third.toString());
    }

    @Test
    void aPublisherFasterThanDeclaredIsJudgedAsTheRoutersJudgeIt() {
        // Declared at 20 Hz and asked at 20 Hz, the routers pass every sample (their filters know the
        // declared interval only): at 40 Hz from 5 s, all 40 a second are asked for and delivered.
        SimulationResult r = Simulation.run(line(List.of(), List.of(new Scenario.RateChange(5 * S, "pmu", I / 2))));
        assertEquals(20, r.rows().get(4).offered());
        assertEquals(40, r.rows().get(6).offered());
        assertEquals(40, r.rows().get(6).delivered());
    }

    @Test
    void aRouterPacksDatagramsOfOneIpPacketOfItsLinksMtuNeverLessThanAFrame() {
        for (int[] mtuAndBytes : new int[][] {{576, 1472}, {1500, 1472}, {9000, 8972}, {65_535, 65_507}}) {
            LinkModel m = new LinkModel(1_000_000, 0, mtuAndBytes[0], 64, LinkModel.Discipline.SCHEDULER, 0,
                    LinkModel.BurstLoss.NONE, 0, 0);
            assertEquals(mtuAndBytes[1], Simulation.datagramBytes(m), "mtu " + mtuAndBytes[0]);
        }
    }
}
