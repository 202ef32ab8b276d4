package org.gridstat.sim.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.gridstat.sim.Simulation;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.net.LinkModel;
import org.gridstat.sim.reproduce.Fragmentation.Arrivals;
import org.gridstat.sim.reproduce.Fragmentation.Figures;
import org.gridstat.sim.reproduce.Fragmentation.Variant;
import org.gridstat.sim.scenario.Scenario;
import org.gridstat.sim.scenario.ScenarioFile;
import org.junit.jupiter.api.Test;

/**
 * The EPFL fragmentation experiment, 30 s of sending per run (scripts/reproduce runs 300 s):
 * two-fragment datagrams 10 % and 20 % over a 1.98 Mbit/s link with a 50-packet queue, on an SHDSL
 * line (ATM cells) as published and on a line of bare IP packets.
 */
class ReproFragmentationTest {
    static final long SECONDS = 30;

    static Figures run(LinkModel.Discipline d, double overload, Arrivals a) {
        return Fragmentation.run(Variant.of(d, overload, a, SECONDS));
    }

    @Test
    void onAnShdslLineAlignedPmusCollapseUnderTailDropAsPublished() {
        // ATM cells: 2,120 and 2,544 line bytes for the 1,863 and 2,226 of IP; the bound in line bytes
        assertEquals((2120 + 2544) / 2.0, Fragmentation.meanLineBytes(LinkModel.Framing.ATM));
        Figures tail = Fragmentation.run(Variant.shdsl(LinkModel.Discipline.FIFO, 1.2, Arrivals.ALIGNED_PMUS, SECONDS));
        assertEquals(1.2, tail.offeredLoad(), 0.002, "the overload counted in IP bytes, as published");
        assertEquals(2044.5 / (1.2 * 2332), tail.boundGoodput(), 0.002);
        assertTrue(tail.goodput() < 0.06, "published: about 3 % survive; " + tail);
        assertTrue(tail.wastedWire() > 0.9, "the line carries broken datagrams: " + tail);
        Figures ten = Fragmentation.run(Variant.shdsl(LinkModel.Discipline.FIFO, 1.1, Arrivals.ALIGNED_PMUS, SECONDS));
        assertTrue(ten.goodput() < 0.4, ten.toString());
        for (double overload : new double[] {1.1, 1.2}) {
            for (LinkModel.Discipline d : new LinkModel.Discipline[] {LinkModel.Discipline.DATAGRAM_FIFO,
                    LinkModel.Discipline.SCHEDULER}) {
                for (Arrivals a : Arrivals.values()) {
                    Figures f = Fragmentation.run(Variant.shdsl(d, overload, a, SECONDS));
                    assertEquals(f.boundGoodput(), f.goodput(), 0.02, "published datagram-aware: about 75 %; " + f);
                    assertEquals(0, f.wastedWire(), 1e-9, f.toString());
                }
            }
        }
    }

    @Test
    void theCollapseNeedsEveryFirstFragmentAheadOfTheSecondOnes() {
        // 120 us between a frame's fragments on the LAN: five reports 20 us apart still interleave
        // wholly (the fifth first fragment at 80 us), 50 us apart no longer do
        Variant aligned = Variant.shdsl(LinkModel.Discipline.FIFO, 1.2, Arrivals.ALIGNED_PMUS, SECONDS);
        Figures together = Fragmentation.run(aligned.spread(20_000));
        Figures apart = Fragmentation.run(aligned.spread(50_000));
        assertTrue(together.goodput() < 0.05, together.toString());
        assertTrue(apart.goodput() > 0.3, apart.toString());
        // and the cells: on a line of bare IP packets the aligned PMUs keep far more
        Figures ip = Fragmentation.run(Variant.of(LinkModel.Discipline.FIFO, 1.2, Arrivals.ALIGNED_PMUS, SECONDS));
        assertTrue(ip.goodput() > 0.3 && ip.goodput() < ip.boundGoodput() - 0.3, ip.toString());
    }

    /** The shipped scenario file is the published setup built in code, field by field. */
    @Test
    void theShippedFileIsTheScenarioBuiltInCode() {
        Scenario built = Fragmentation.scenario(Variant.shdsl(LinkModel.Discipline.FIFO, 1.2, Arrivals.ALIGNED_PMUS,
                Reproductions.Length.FULL.fragmentationSeconds));
        Scenario file = ScenarioFile.load(Path.of("scenarios", "fragmentation.yaml"), Map.of());
        assertEquals(built.topology().toText(), file.topology().toText());
        assertEquals(List.of(built.durationNanos(), built.reportIntervalNanos(), built.seed(), built.admission(),
                        built.links(), built.variables(), built.subscriptions(), built.rawSources(), built.timeline()),
                List.of(file.durationNanos(), file.reportIntervalNanos(), file.seed(), file.admission(), file.links(),
                        file.variables(), file.subscriptions(), file.rawSources(), file.timeline()));
    }

    @Test
    void aRunCutShortWithBrokenDatagramsStillQueuedKeepsItsBooks() {
        Simulation.Checked c = Simulation.runChecked(ScenarioFile.load(Path.of("scenarios", "fragmentation.yaml"),
                Map.of("duration", "20s")));
        assertEquals(List.of(), c.violations());
        assertTrue(c.result().links().get("pmus->pdc").datagramsSent() > 2_800);
    }

    @Test
    void theLoadIsCountedInWireBytesWithTheIpHeaderOfEachFragment() {
        // 1,815 + 8 + 2 x 20 and 2,178 + 8 + 2 x 20
        assertEquals((1863 + 2226) / 2.0, Fragmentation.meanWireBytes());
        Figures f = run(LinkModel.Discipline.DATAGRAM_FIFO, 1.2, Arrivals.DRIFTING_PMUS);
        assertEquals(1.2, f.offeredLoad(), 0.002);
        assertEquals(1 / 1.2, f.boundGoodput(), 0.002);
    }

    @Test
    void tailDropLosesFarMoreThanTheBoundAndWastesTheWireOnBrokenDatagrams() {
        Figures ten = run(LinkModel.Discipline.FIFO, 1.1, Arrivals.DRIFTING_PMUS);
        Figures twenty = run(LinkModel.Discipline.FIFO, 1.2, Arrivals.DRIFTING_PMUS);
        assertTrue(ten.goodput() < ten.boundGoodput() - 0.08, ten.toString());
        assertTrue(twenty.goodput() < twenty.boundGoodput() - 0.15, twenty.toString());
        assertTrue(twenty.goodput() < ten.goodput() - 0.10, "the loss grows faster than the overload");
        assertTrue(twenty.wastedWire() > 0.15, "a fifth of the wire carries fragments of datagrams never delivered: "
                + twenty);
        // A lone periodic source locks into step with the queue: most of its datagrams are broken.
        Figures one = run(LinkModel.Discipline.FIFO, 1.2, Arrivals.ONE_PMU);
        assertTrue(one.goodput() < 0.45, one.toString());
        Figures poisson = run(LinkModel.Discipline.FIFO, 1.2, Arrivals.POISSON);
        assertTrue(poisson.goodput() < poisson.boundGoodput() - 0.08, poisson.toString());
    }

    @Test
    void aDatagramAwareQueueDeliversWithinTwoPointsOfTheBound() {
        for (double overload : new double[] {1.1, 1.2}) {
            for (Arrivals a : Arrivals.values()) {
                Figures f = run(LinkModel.Discipline.DATAGRAM_FIFO, overload, a);
                assertEquals(f.boundGoodput(), f.goodput(), 0.02, f.toString());
                assertEquals(0, f.wastedWire(), 1e-9, f.toString());
            }
        }
    }

    @Test
    void theRoutersSchedulerQueuesWholeDatagramsPerFlowAndDeliversWithinTwoPointsOfTheBound() {
        for (double overload : new double[] {1.1, 1.2}) {
            for (Arrivals a : Arrivals.values()) {
                Variant v = Variant.of(LinkModel.Discipline.SCHEDULER, overload, a, SECONDS);
                Figures f = Fragmentation.run(v);
                assertEquals(f.boundGoodput(), f.goodput(), 0.02, f.toString());
                assertEquals(0, f.wastedWire(), 1e-9, f.toString());
            }
        }
        Variant v = Variant.of(LinkModel.Discipline.SCHEDULER, 1.2, Arrivals.DRIFTING_PMUS, SECONDS);
        assertEquals(Fragmentation.QUEUE_PACKETS, v.sourceCount() * v.flowBufferDatagrams() * Fragmentation.FRAGMENTS,
                "the flows buffer as many packets as the FIFO does");
        SimulationResult r = Simulation.run(Fragmentation.scenario(v));
        SimulationResult.LinkFigures link = r.links().get("pmus->pdc");
        assertEquals(0, link.lostToQueue(), "paced, the packet queue behind the scheduler never overflows: " + link);
        assertEquals(link.datagramsSent(), link.datagramsDelivered(), link.toString());
    }
}
