package org.gridstat.core.sched;

import static org.gridstat.core.sched.SimulatedLink.MS;
import static org.gridstat.core.sched.SimulatedLink.S;
import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.SimulatedLink.Departure;
import org.junit.jupiter.api.Test;

/**
 * A link the kernel shapes: the scheduler orders and releases at once, whatever the rates, and
 * still reasons with the link's real capacity.
 */
class KernelShapedLinkTest {
    private static final long LINK = 10_000; // bytes per second: 1,000 B would take 100 ms if paced

    @Test
    void everyEventLeavesAtOnceInClassThenDeadlineOrder() {
        LinkSpec spec = LinkSpec.ofPercent(LINK, 50, 30, 20, 0).shapedInKernel();
        SimulatedLink sim = new SimulatedLink(spec, 4);
        int be = sim.flow(1, ServiceClass.BE, 100, 200, 20);
        int lrt = sim.flow(2, ServiceClass.LRT, 100, 200, 20);
        int hrtA = sim.flow(3, ServiceClass.HRT, 100, 200, 20);
        int hrtB = sim.flow(4, ServiceClass.HRT, 100, 200, 20);
        // 13 events of 1,000 B at once: 1.3 s of the link if it were paced
        for (int i = 0; i < 4; i++) {
            sim.at(0, be, i, Long.MAX_VALUE, 1000);
            sim.at(0, lrt, i, (50 + i) * MS, 1000);
        }
        for (long d : new long[] {10, 30, 50}) {
            sim.at(0, hrtA, d, d * MS, 1000);
        }
        for (long d : new long[] {20, 40}) {
            sim.at(0, hrtB, d, d * MS, 1000);
        }
        sim.run(S);
        assertEquals(13, sim.departures.size());
        for (Departure d : sim.departures) {
            assertEquals(0, d.at(), "left at once: " + d);
        }
        List<Long> order = sim.departures.stream().map(d -> d.event().flow() == be ? -1 : d.event().deadline() / MS)
                .toList();
        assertEquals(List.of(10L, 20L, 30L, 40L, 50L, 50L, 51L, 52L, 53L, -1L, -1L, -1L, -1L), order,
                "HRT by deadline across its flows, then LRT, then best effort");
        assertEquals(LINK, sim.scheduler.capacity(), "a rate policy still sees the link's capacity");
    }

    @Test
    void theSameLoadOnAUserSpaceLinkIsPacedToItsCapacity() {
        SimulatedLink sim = new SimulatedLink(LinkSpec.ofPercent(LINK, 50, 30, 20, 0), 4);
        int be = sim.flow(1, ServiceClass.BE, 100, LINK, 20);
        for (int i = 0; i < 5; i++) {
            sim.at(0, be, i, Long.MAX_VALUE, 1000);
        }
        sim.run(S);
        assertEquals(5, sim.departures.size());
        assertTrue(sim.departures.get(4).at() >= 300 * MS, "paced: " + sim.departures.get(4));
    }

    @Test
    void anEventPastItsExpiryIsStillDroppedAsADeadlineMiss() {
        SimulatedLink sim = new SimulatedLink(LinkSpec.ofPercent(LINK, 50, 30, 20, 0).shapedInKernel(), 2);
        int hrt = sim.flow(1, ServiceClass.HRT, 100, 200, 20);
        sim.at(0, hrt, 0, -5 * MS, -1, 500); // expired before it arrived
        sim.at(0, hrt, 1, 5 * MS, 5 * MS, 500);
        sim.run(S);
        assertEquals(1, sim.departures.size());
        assertEquals(1, sim.departures.get(0).event().seq());
        assertEquals(1, sim.released.size());
    }

    @Test
    void aLinkTakingItsDemandFromTheKernelIgnoresItsOwnArrivalsAndFollowsWhatItIsGiven() {
        SimulatedLink sim = new SimulatedLink(LinkSpec.ofPercent(LINK, 50, 30, 20, 0).shapedInKernel(true), 2);
        int hrt = sim.flow(1, ServiceClass.HRT, 100, 200, 20);
        sim.periodic(hrt, 0, 10 * MS, 3 * S, 100, 5 * MS); // 100 events/s of 100 B, arrivals the router counts
        sim.run(3 * S);
        assertEquals(0, sim.scheduler.demand(hrt), 1e-9, "arrivals do not make the demand");
        sim.scheduler.measuredDemand(hrt, 5_000);
        assertEquals(5_000, sim.scheduler.demand(hrt), 1e-9, "a period's measure counts at once");
        assertEquals(5_000, sim.scheduler.statistics().flow(1).queue().demandRate(), 1e-9);

        SimulatedLink own = new SimulatedLink(LinkSpec.ofPercent(LINK, 50, 30, 20, 0).shapedInKernel(false), 2);
        int f = own.flow(1, ServiceClass.HRT, 100, 200, 20);
        own.periodic(f, 0, 10 * MS, 3 * S, 100, 5 * MS);
        own.run(3 * S);
        own.scheduler.measuredDemand(f, 1);
        assertTrue(own.scheduler.demand(f) > 10_000, "from its arrivals (100 x 128 B/s): " + own.scheduler.demand(f));
    }
}
