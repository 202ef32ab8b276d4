package org.gridstat.core.sched;

import static org.gridstat.core.sched.SimulatedLink.MS;
import static org.gridstat.core.sched.SimulatedLink.S;
import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.SimulatedLink.Departure;
import org.gridstat.core.sched.SimulatedLink.Ev;
import org.junit.jupiter.api.Test;

/** The link scheduler on simulated time: order, timing, sharing and accounting. */
class LinkSchedulerTest {
    private static final long LINK = 100_000; // bytes per second
    private static final int SAMPLE = 260;

    private static LinkSpec link(long hrt, long lrt, long be) {
        Map<ServiceClass, Shaping> shares = new EnumMap<>(ServiceClass.class);
        shares.put(ServiceClass.HRT, Shaping.of(hrt, LINK));
        shares.put(ServiceClass.LRT, Shaping.of(lrt, LINK));
        shares.put(ServiceClass.BE, Shaping.of(be, LINK));
        return LinkSpec.of(LINK, 1600, shares, 16);
    }

    private static LinkSpec defaultLink() {
        return link(50_000, 30_000, 20_000);
    }

    @Test
    void edfOrdersEachRealTimeClassByHopDeadline() {
        for (ServiceClass c : new ServiceClass[] {ServiceClass.HRT, ServiceClass.LRT}) {
            SimulatedLink sim = new SimulatedLink(defaultLink(), 8);
            int a = sim.flow(1, c, 50_000, LINK, 20);
            int b = sim.flow(2, c, 50_000, LINK, 20);
            int d = sim.flow(3, c, 50_000, LINK, 20);
            // All arrive at once; deadlines interleave across flows, each flow's own in order.
            long[][] deadlines = {{30, 60, 90}, {10, 70}, {20, 40, 50, 80}};
            int[] slots = {a, b, d};
            for (int f = 0; f < 3; f++) {
                for (int i = 0; i < deadlines[f].length; i++) {
                    sim.at(0, slots[f], i, deadlines[f][i] * MS, 100);
                }
            }
            sim.run(S);
            List<Long> order = new ArrayList<>();
            for (Departure dep : sim.departures) {
                order.add(dep.event().deadline() / MS);
            }
            assertEquals(List.of(10L, 20L, 30L, 40L, 50L, 60L, 70L, 80L, 90L), order, c.name());
        }
    }

    @Test
    void bestEffortIsServedInArrivalOrderAcrossFlows() {
        SimulatedLink sim = new SimulatedLink(defaultLink(), 4);
        int a = sim.flow(1, ServiceClass.BE, 20_000, LINK, 20);
        int b = sim.flow(2, ServiceClass.BE, 20_000, LINK, 20);
        sim.at(1 * MS, a, 0, Long.MAX_VALUE, 100);
        sim.at(1 * MS, b, 0, 5 * MS, 100); // an earlier deadline changes nothing in BE
        sim.at(1 * MS, a, 1, Long.MAX_VALUE, 100);
        sim.at(1 * MS, b, 1, Long.MAX_VALUE, 100);
        sim.run(S);
        List<String> order = sim.departures.stream().map(d -> d.event().flow() + ":" + d.event().seq()).toList();
        assertEquals(List.of(a + ":0", b + ":0", a + ":1", b + ":1"), order);
    }

    @Test
    void controlGoesBeforeAnyDataQueuedEarlier() {
        SimulatedLink sim = new SimulatedLink(defaultLink(), 4);
        int hrt = sim.flow(1, ServiceClass.HRT, 50_000, LINK, 20);
        for (int i = 0; i < 10; i++) {
            sim.at(0, hrt, i, S + i, SAMPLE);
        }
        sim.controlAt(0, 99, 64);
        sim.run(S);
        assertTrue(sim.departures.get(0).event().control(), "control first");
        assertEquals(0, sim.departures.get(0).at());
        assertEquals(11, sim.departures.size());
    }

    @Test
    void anHrtFlowWithinItsReservationMeetsEveryDeadlineWhileBestEffortFloodsTenTimesTheLink() {
        SimulatedLink sim = new SimulatedLink(defaultLink(), 4);
        // 60 Hz of 260-byte samples = 15.6 kB/s, within the 20 kB/s reserved; 20 ms hop budget.
        int hrt = sim.flow(1, ServiceClass.HRT, 20_000, LINK, 20);
        int be = sim.flow(2, ServiceClass.BE, 10_000, LINK, 20);
        long hrtPeriod = S / 60;
        sim.periodic(hrt, 0, hrtPeriod, 10 * S, SAMPLE, 20 * MS);
        // Best effort offers 1 MB/s: ten times the link.
        sim.periodic(be, 0, S * SAMPLE / 1_000_000, 10 * S, SAMPLE, Long.MAX_VALUE);
        sim.run(10 * S + S);

        List<Departure> hrtSent = sim.departuresOf(hrt);
        assertEquals(601, hrtSent.size(), "every HRT sample sent (16,666,666 ns apart over 10 s)");
        for (Departure d : hrtSent) {
            assertTrue(d.at() <= d.event().deadline(), "sample " + d.event().seq() + " late: " + d.at() + " > " + d.event().deadline());
        }
        LinkStatistics stats = sim.scheduler.statistics();
        QueueStatistics h = stats.flow(1).queue();
        assertEquals(0, h.deadlineMisses());
        assertEquals(0, h.overflowDrops());
        // Best effort gets what is left of the link, and its excess is refused at its buffer.
        long beBytes = sim.bytesSent(be, S, 10 * S);
        long hrtBytes = sim.bytesSent(hrt, S, 10 * S);
        double linkUse = (beBytes + hrtBytes) / 9.0;
        assertEquals(LINK, linkUse, LINK * 0.03, "the link is kept full");
        assertTrue(stats.flow(2).queue().overflowDrops() > 30_000, "BE excess dropped at its buffer");
        assertTrue(sim.maxBacklog <= 20 + 20, "backlog bounded by the buffers: " + sim.maxBacklog);
    }

    @Test
    void aFlowBorrowsUpToItsCeilingAndNoFurther() {
        SimulatedLink sim = new SimulatedLink(defaultLink(), 4);
        // Assured 10 kB/s, ceiling 30 kB/s, offered 80 kB/s on an otherwise idle link.
        int f = sim.flow(1, ServiceClass.BE, 10_000, 30_000, 20);
        sim.periodic(f, 0, S * SAMPLE / 80_000, 10 * S, SAMPLE, Long.MAX_VALUE);
        sim.run(11 * S);
        double rate = sim.bytesSent(f, S, 10 * S) / 9.0;
        assertEquals(30_000, rate, 30_000 * 0.02, "borrows up to its ceiling, no further");

        // Two flows of one class: each above its assured rate borrows; the one with the lower ceiling stops there.
        SimulatedLink two = new SimulatedLink(link(20_000, 20_000, 60_000), 4);
        int wide = two.flow(1, ServiceClass.LRT, 10_000, LINK, 20);
        int narrow = two.flow(2, ServiceClass.LRT, 10_000, 40_000, 20);
        two.periodic(wide, 0, S * SAMPLE / 200_000, 10 * S, SAMPLE, Long.MAX_VALUE);
        two.periodic(narrow, 0, S * SAMPLE / 200_000, 10 * S, SAMPLE, Long.MAX_VALUE);
        two.run(11 * S);
        double narrowRate = two.bytesSent(narrow, S, 10 * S) / 9.0;
        double wideRate = two.bytesSent(wide, S, 10 * S) / 9.0;
        assertEquals(40_000, narrowRate, 40_000 * 0.02, "narrow flow held at its ceiling");
        assertEquals(60_000, wideRate, 60_000 * 0.03, "the wide flow borrows the rest of the link");
    }

    @Test
    void eachClassKeepsItsAssuredRateWhenAllFlood() {
        SimulatedLink sim = new SimulatedLink(link(50_000, 30_000, 20_000), 4);
        int hrt = sim.flow(1, ServiceClass.HRT, 50_000, LINK, 20);
        int lrt = sim.flow(2, ServiceClass.LRT, 30_000, LINK, 20);
        int be = sim.flow(3, ServiceClass.BE, 20_000, LINK, 20);
        for (int f : new int[] {hrt, lrt, be}) {
            sim.periodic(f, 0, S * SAMPLE / 300_000, 10 * S, SAMPLE, Long.MAX_VALUE);
        }
        sim.run(11 * S);
        assertEquals(50_000, sim.bytesSent(hrt, S, 10 * S) / 9.0, 50_000 * 0.03);
        assertEquals(30_000, sim.bytesSent(lrt, S, 10 * S) / 9.0, 30_000 * 0.03);
        assertEquals(20_000, sim.bytesSent(be, S, 10 * S) / 9.0, 20_000 * 0.03);
    }

    @Test
    void deadlineMissesAndOverflowsAreCountedApartAndEveryEventIsAccountedFor() {
        SimulatedLink sim = new SimulatedLink(link(1_000, 1_000, 1_000), 4);
        // A flow held to 1 kB/s (ceiling) offered 10 kB/s with a 100 ms budget: its buffer of 5
        // overflows, and what waits too long misses its deadline.
        int f = sim.flow(1, ServiceClass.HRT, 1_000, 1_000, 5);
        sim.periodic(f, 0, 26 * MS, 5 * S, SAMPLE, 100 * MS);
        sim.run(6 * S);
        QueueStatistics q = sim.scheduler.statistics().flow(1).queue();
        assertTrue(q.overflowDrops() > 0, q.toString());
        assertTrue(q.deadlineMisses() > 0, q.toString());
        assertEquals(sim.refused.size(), q.overflowDrops(), "refused events are the overflow drops");
        assertEquals(sim.released.size(), q.deadlineMisses(), "released events are the deadline misses");
        assertEquals(q.arrivals(), q.departures() + q.overflowDrops() + q.deadlineMisses() + q.backlog());
        for (Departure d : sim.departuresOf(f)) {
            assertTrue(d.at() <= d.event().deadline(), "nothing sent late");
        }
        for (Ev e : sim.released) {
            assertTrue(e.deadline() < 6 * S, "only expired events are dropped as misses");
        }
    }

    @Test
    void memoryStaysBoundedUnderAFlood() {
        SimulatedLink sim = new SimulatedLink(defaultLink(), 8);
        int[] flows = new int[6];
        for (int i = 0; i < flows.length; i++) {
            flows[i] = sim.flow(i + 1, i % 2 == 0 ? ServiceClass.BE : ServiceClass.LRT, 5_000, LINK, 20);
            // Each offers 100 MB/s: a thousand times the link.
            sim.periodic(flows[i], 0, 2_600, S, SAMPLE, Long.MAX_VALUE);
        }
        sim.run(S);
        assertTrue(sim.maxBacklog <= 6 * 20, "backlog never exceeds the buffers: " + sim.maxBacklog);
        long offered = 0;
        long sent = 0;
        for (FlowStatistics fs : sim.scheduler.statistics().flows()) {
            offered += fs.queue().arrivals();
            sent += fs.queue().departures();
            assertTrue(fs.queue().backlog() <= 20);
        }
        assertTrue(offered > 2_000_000, "the flood was offered: " + offered);
        assertEquals(offered, sent + sim.refused.size() + sim.released.size() + sim.scheduler.backlog());
    }

    @Test
    void linkIsPacedToItsCapacity() {
        SimulatedLink sim = new SimulatedLink(defaultLink(), 2);
        int f = sim.flow(1, ServiceClass.BE, 20_000, LINK, 1000);
        for (int i = 0; i < 1000; i++) {
            sim.at(0, f, i, Long.MAX_VALUE, 1000);
        }
        sim.run(20 * S);
        assertEquals(1000, sim.departures.size());
        long last = sim.departures.get(999).at();
        // 1 MB at 100 kB/s is 10 s, less the 1600-byte burst sent at once.
        assertEquals(10.0 - 0.016, last / 1e9, 0.01);
    }

    @Test
    void modifyAndRemoveKeepTheAccounting() {
        SimulatedLink sim = new SimulatedLink(link(1_000, 1_000, 1_000), 4);
        LinkScheduler<Ev> s = sim.scheduler;
        int f = sim.flow(7, ServiceClass.BE, 1_000, 1_000, 10);
        for (int i = 0; i < 8; i++) {
            assertTrue(s.enqueue(f, new Ev(f, i, 0, Long.MAX_VALUE, 100, false), 100, Long.MAX_VALUE, 0));
        }
        s.modifyFlow(f, FlowSpec.of(7, ServiceClass.HRT, 1_000, 0, 1_000, 5, "substation-3"), 0);
        QueueStatistics q = s.statistics().flow(7).queue();
        assertEquals(5, q.backlog());
        assertEquals(3, q.overflowDrops(), "a shrunken buffer drops what no longer fits");
        assertEquals(ServiceClass.HRT, s.statistics().flow(7).serviceClass());
        assertEquals(5, s.statistics().serviceClass(ServiceClass.HRT).backlog());
        assertEquals(0, s.statistics().serviceClass(ServiceClass.BE).backlog());
        s.removeFlow(f);
        assertNull(s.statistics().flow(7));
        assertEquals(0, s.backlog());
        assertEquals(8, sim.released.size(), "every event given back");
        assertThrows(IllegalArgumentException.class, () -> s.removeFlow(f));
        int again = sim.flow(8, ServiceClass.BE, 1_000, 1_000, 10);
        assertEquals(f, again, "the slot is reused");
    }

    @Test
    void specsRejectNonsense() {
        assertThrows(IllegalArgumentException.class, () -> FlowSpec.of(1, ServiceClass.HRT, 10, 20, 30, 20, ""));
        assertThrows(IllegalArgumentException.class, () -> FlowSpec.of(1, ServiceClass.HRT, 40, 0, 30, 20, ""));
        assertThrows(IllegalArgumentException.class, () -> FlowSpec.of(1, ServiceClass.CONTROL, 10, 0, 30, 20, ""));
        assertThrows(IllegalArgumentException.class, () -> FlowSpec.of(1, ServiceClass.BE, 10, 0, 30, 0, ""));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> link(60_000, 30_000, 20_000)).getMessage()
                .contains("add up to 110000"));
        assertThrows(IllegalArgumentException.class, () -> Shaping.of(10, 5));
    }
}
