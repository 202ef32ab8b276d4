package org.gridstat.sim.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.gridstat.sim.Simulation;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.net.LinkModel;
import org.gridstat.sim.reproduce.Fragmentation.Arrivals;
import org.gridstat.sim.reproduce.Fragmentation.Figures;
import org.gridstat.sim.reproduce.Fragmentation.Variant;
import org.junit.jupiter.api.Test;

/**
 * The EPFL fragmentation experiment, 30 s of sending per run (scripts/reproduce runs 300 s):
 * two-fragment datagrams 10 % and 20 % over a 1.98 Mbit/s link with a 50-packet queue.
 */
class ReproFragmentationTest {
    static final long SECONDS = 30;

    static Figures run(LinkModel.Discipline d, double overload, Arrivals a) {
        return Fragmentation.run(Variant.of(d, overload, a, SECONDS));
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
