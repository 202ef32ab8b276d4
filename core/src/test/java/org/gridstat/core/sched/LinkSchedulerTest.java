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
import org.gridstat.core.wire.WireFormat;
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
        // A flow held to 1 kB/s (ceiling; 1,610-byte bucket) offered 10 kB/s: a 1,000-byte event every
        // 100 ms for 5 s, each charged 1,028 bytes on the wire, due at this hop 60 ms after arrival and
        // expiring 100 ms after it. Its buffer of 5 overflows, and what waits past its expiry misses.
        // By hand (times in ms):
        //   e0 leaves at 0 and e1 at 100 on the bucket; the flow is then 346 B in debt until 446.
        //   446: e2 and e3 (expired at 300 and 400) are dropped, e4 (expiring at 500) leaves; 1,028 B of debt.
        //   e5..e9 fill the buffer, e10..e14 are refused; 1474: e5..e9 have expired, 5 dropped.
        //   e15 arrives at 1500 to an empty queue and leaves; e16..e20 queue, e21..e25 are refused,
        //   2502: 5 dropped; e26 and e36 leave as e15 did (3530, 4558: 5 dropped each, e32..e35 and
        //   e42..e45 refused), e46 at 4600, and e47..e49 are dropped at 5586.
        int f = sim.flow(1, ServiceClass.HRT, 1_000, 1_000, 5);
        sim.periodic(f, 0, 100 * MS, 5 * S, 1_000, 60 * MS, 100 * MS);
        sim.run(6 * S);
        QueueStatistics q = sim.scheduler.statistics().flow(1).queue();
        assertEquals(List.of(0L, 1L, 4L, 15L, 26L, 36L, 46L),
                sim.departuresOf(f).stream().map(d -> d.event().seq()).toList(), "what was sent");
        assertEquals(25, q.deadlineMisses(), q.toString());
        assertEquals(18, q.overflowDrops(), q.toString());
        assertEquals(sim.refused.size(), q.overflowDrops(), "refused events are the overflow drops");
        assertEquals(sim.released.size(), q.deadlineMisses(), "released events are the deadline misses");
        assertEquals(50, q.arrivals());
        assertEquals(q.arrivals(), q.departures() + q.overflowDrops() + q.deadlineMisses() + q.backlog());
        for (Departure d : sim.departuresOf(f)) {
            assertTrue(d.at() <= d.event().expiry(), "sent after its expiry: " + d);
        }
        for (SimulatedLink.Dropped d : sim.released) {
            assertTrue(d.at() > d.event().expiry(), "dropped before it expired: " + d);
        }
    }

    @Test
    void anEventPastItsHopDeadlineButWithinItsEndToEndBudgetIsSentOneThatCannotMakeItIsDroppedAtTheHead() {
        SimulatedLink sim = new SimulatedLink(link(1_000, 1_000, 1_000), 4);
        // 1 kB/s for 1,000-byte events: two leave at once (the 1,610-byte bucket), the next at 390 ms,
        // the one after at 1,390 ms.
        int f = sim.flow(1, ServiceClass.HRT, 1_000, 1_000, 10);
        sim.at(0, f, 0, 1 * MS, 1 * MS, 1_000);
        sim.at(0, f, 1, 1 * MS, 20 * MS, 1_000); // leaves at ~9 ms (link pacing): late for its hop, in time end to end
        sim.at(0, f, 2, 100 * MS, 500 * MS, 1_000); // leaves at 390 ms, past its hop deadline
        sim.at(0, f, 3, 100 * MS, S, 1_000); // its turn comes at 1,390 ms: it cannot make it
        sim.at(0, f, 4, 2 * S, Long.MAX_VALUE, 1_000);
        sim.run(3 * S);
        List<Departure> sent = sim.departuresOf(f);
        assertEquals(List.of(0L, 1L, 2L, 4L), sent.stream().map(d -> d.event().seq()).toList());
        for (int i = 1; i < 3; i++) {
            Departure d = sent.get(i);
            assertTrue(d.at() > d.event().deadline() && d.at() <= d.event().expiry(), d.toString());
        }
        assertEquals(1, sim.released.size());
        SimulatedLink.Dropped miss = sim.released.get(0);
        assertEquals(3, miss.event().seq());
        assertTrue(miss.at() > S, "dropped once it could no longer make it, not before: " + miss.at());
        assertEquals(sent.get(3).at(), miss.at(), "dropped at the head, when its flow's turn came");
        assertEquals(1, sim.scheduler.statistics().flow(1).queue().deadlineMisses());

        // At the boundary: leaving exactly at its expiry is in time, a nanosecond later is not.
        SimulatedLink edge = new SimulatedLink(defaultLink(), 2);
        LinkScheduler<Ev> s = edge.scheduler;
        int g = edge.flow(2, ServiceClass.HRT, 50_000, LINK, 10);
        for (int i = 0; i < 2; i++) {
            assertTrue(s.enqueue(g, new Ev(g, i, 0, 0, 5 * MS, 100, false), 100, 0, 5 * MS, 0));
        }
        assertEquals(0, s.dequeue(5 * MS).seq());
        edge.now = 5 * MS + 1;
        assertNull(s.dequeue(5 * MS + 1));
        assertEquals(List.of(new SimulatedLink.Dropped(new Ev(g, 1, 0, 0, 5 * MS, 100, false), 5 * MS + 1)), edge.released);
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
        // 1,000 frames of 1,000 bytes and their datagrams' 28 bytes of headers at 100 kB/s: 10.28 s. A
        // 1,600-byte burst is a bucket of 1,600 - 1,472 = 128 bytes plus the datagram that overdraws it:
        // the last event leaves once 999 x 1,028 bytes less those 128 are paid for.
        assertEquals((999 * 1_028 - 128) / 1e5, last / 1e9, 1e-6);
    }

    @Test
    void modifyAndRemoveKeepTheAccounting() {
        SimulatedLink sim = new SimulatedLink(link(1_000, 1_000, 1_000), 4);
        LinkScheduler<Ev> s = sim.scheduler;
        int f = sim.flow(7, ServiceClass.BE, 1_000, 1_000, 10);
        int g = sim.flow(9, ServiceClass.HRT, 1_000, 1_000, 10);
        // Flow 7's events are due at 1, 3, 5 ... ms, flow 9's at 2, 4, 6 ms.
        for (int i = 0; i < 8; i++) {
            long due = (2 * i + 1) * MS;
            assertTrue(s.enqueue(f, new Ev(f, i, 0, due, Long.MAX_VALUE, 100, false), 100, due, Long.MAX_VALUE, 0));
        }
        for (int i = 0; i < 3; i++) {
            long due = (2 * i + 2) * MS;
            assertTrue(s.enqueue(g, new Ev(g, i, 0, due, Long.MAX_VALUE, 100, false), 100, due, Long.MAX_VALUE, 0));
        }
        s.modifyFlow(f, FlowSpec.of(7, ServiceClass.HRT, 1_000, 0, 1_000, 5, "substation-3"), 0);
        QueueStatistics q = s.statistics().flow(7).queue();
        assertEquals(5, q.backlog());
        assertEquals(3, q.overflowDrops(), "a shrunken buffer drops what no longer fits");
        assertEquals(List.of(5L, 6L, 7L), sim.released.stream().map(d -> d.event().seq()).toList(),
                "the oldest that fit are kept");
        assertEquals(ServiceClass.HRT, s.statistics().flow(7).serviceClass());
        assertEquals(8, s.statistics().serviceClass(ServiceClass.HRT).backlog());
        assertEquals(0, s.statistics().serviceClass(ServiceClass.BE).backlog());
        // Now HRT, flow 7 is ordered by its hop deadlines among flow 9's.
        assertEquals(List.of(f + ":0", g + ":0", f + ":1", g + ":1"), drain(s, 0, 4));
        s.removeFlow(f);
        assertNull(s.statistics().flow(7));
        assertEquals(1, s.backlog(), "flow 9's last event");
        assertEquals(6, sim.released.size(), "every event of flow 7 not sent is given back");
        // Nothing leaves the books unseen: per class, what arrived departed, missed, overflowed,
        // went with its flow or still waits (flow 7 moved from BE to HRT with its backlog).
        QueueStatistics hrt = s.statistics().serviceClass(ServiceClass.HRT);
        QueueStatistics be = s.statistics().serviceClass(ServiceClass.BE);
        assertEquals(3, hrt.removedDrops(), "flow 7's three left when it was torn down, counted");
        assertEquals(3, be.overflowDrops() + hrt.overflowDrops(), "the shrink's three, counted in the class too");
        long arrived = hrt.arrivals() + be.arrivals();
        long accounted = 0;
        for (QueueStatistics c : List.of(hrt, be)) {
            accounted += c.departures() + c.deadlineMisses() + c.overflowDrops() + c.removedDrops() + c.backlog();
        }
        assertEquals(11, arrived);
        assertEquals(arrived, accounted, "every arrival accounted for");
        assertThrows(IllegalArgumentException.class, () -> s.removeFlow(f));
        int again = sim.flow(8, ServiceClass.BE, 1_000, 1_000, 10);
        assertEquals(f, again, "the slot is reused");
    }

    /** Takes {@code n} events from {@code s}, asking again exactly when it says; "slot:seq" in departure order. */
    private static List<String> drain(LinkScheduler<Ev> s, long from, int n) {
        List<String> out = new ArrayList<>();
        long now = from;
        while (out.size() < n) {
            Ev e = s.dequeue(now);
            if (e == null) {
                long next = s.nextWakeNanos(now);
                assertTrue(next > now && next != Long.MAX_VALUE, "stalled at " + now + " with " + s.backlog() + " queued");
                now = next;
                continue;
            }
            out.add(e.flow() + ":" + e.seq());
        }
        return out;
    }

    @Test
    void aClassChangeReordersTheFlowsQueuedEventsByItsNewClass() {
        // Best effort to HRT: the moved events take their places by hop deadline (ms below), not by
        // their arrival numbers, which would put them ahead of every deadline.
        SimulatedLink up = new SimulatedLink(defaultLink(), 8);
        int h1 = up.flow(1, ServiceClass.HRT, 20_000, LINK, 20);
        int h2 = up.flow(2, ServiceClass.HRT, 20_000, LINK, 20);
        int b = up.flow(3, ServiceClass.BE, 20_000, LINK, 20);
        int c = up.flow(4, ServiceClass.BE, 20_000, LINK, 20);
        offer(up, b, 0, 25);
        offer(up, h1, 0, 10);
        offer(up, h2, 0, 20);
        offer(up, c, 0, 5);
        offer(up, b, 1, 45);
        offer(up, h1, 1, 30);
        offer(up, h2, 1, 40);
        offer(up, h1, 2, 50);
        up.scheduler.modifyFlow(b, FlowSpec.of(3, ServiceClass.HRT, 20_000, 0, LINK, 20, ""), 0);
        up.run(S);
        assertEquals(List.of(h1 + ":0", h2 + ":0", b + ":0", h1 + ":1", h2 + ":1", b + ":1", h1 + ":2", c + ":0"),
                order(up));

        // HRT to best effort: the moved events take their places by arrival, not behind every best-effort
        // event because their keys were deadlines.
        SimulatedLink down = new SimulatedLink(defaultLink(), 8);
        int b1 = down.flow(5, ServiceClass.BE, 20_000, LINK, 20);
        int h = down.flow(6, ServiceClass.HRT, 20_000, LINK, 20);
        int b2 = down.flow(7, ServiceClass.BE, 20_000, LINK, 20);
        offer(down, b1, 0, 50);
        offer(down, h, 0, 5);
        offer(down, b2, 0, 40);
        offer(down, h, 1, 6);
        offer(down, b1, 1, 30);
        offer(down, b2, 1, 20);
        down.scheduler.modifyFlow(h, FlowSpec.of(6, ServiceClass.BE, 20_000, 0, LINK, 20, ""), 0);
        down.run(S);
        assertEquals(List.of(b1 + ":0", h + ":0", b2 + ":0", h + ":1", b1 + ":1", b2 + ":1"), order(down));
    }

    /** Queues a 100-byte event at time 0 with a hop deadline of {@code dueMs}; it never expires. */
    private static void offer(SimulatedLink sim, int slot, long seq, long dueMs) {
        Ev e = new Ev(slot, seq, 0, dueMs * MS, Long.MAX_VALUE, 100, false);
        assertTrue(sim.scheduler.enqueue(slot, e, 100, e.deadline(), e.expiry(), 0));
    }

    private static List<String> order(SimulatedLink sim) {
        return sim.departures.stream().map(d -> d.event().flow() + ":" + d.event().seq()).toList();
    }

    @Test
    void theEighthDepartureOfATokenBucketPacedFlowIsAtTheExactBucketTime() {
        // A 2 MB/s link whose burst is one maximum frame (a bucket of depth 0: one event at a time,
        // 139 us per 250-byte event and its 28 bytes of headers) and an HRT flow of 20 kB/s (ceiling
        // too; its bucket holds 1,800 B, 10 ms of its rate plus 1,600) offered 24 events at once, each
        // charged 278 B on the wire. The link paces the first seven while the flow's bucket drains; the
        // eighth waits for the flow's bucket: 129.32 B of debt at 20 kB/s once the seventh has left at
        // 834 us, 7.3 ms after the start.
        long capacity = 2_000_000;
        Map<ServiceClass, Shaping> shares = new EnumMap<>(ServiceClass.class);
        shares.put(ServiceClass.HRT, Shaping.of(capacity / 2, capacity));
        shares.put(ServiceClass.LRT, Shaping.of(capacity / 4, capacity));
        shares.put(ServiceClass.BE, Shaping.of(capacity / 4, capacity));
        SimulatedLink sim = new SimulatedLink(LinkSpec.of(capacity, WireFormat.MAX_FRAME_LENGTH, shares, 16), 2);
        int f = sim.flow(1, ServiceClass.HRT, 20_000, 20_000, 32);
        for (int i = 0; i < 24; i++) {
            sim.at(0, f, i, Long.MAX_VALUE, 250);
        }
        sim.run(2 * S);
        List<Long> sent = sim.departures.stream().map(Departure::at).toList();
        List<Long> expected = tokenBuckets(24, 250 + WireFormat.DATAGRAM_OVERHEAD, new long[] {20_000, capacity},
                new long[] {1_800, 0});
        assertEquals(7_300 * 1_000, expected.get(7));
        assertEquals(expected.get(7), sent.get(7), "the eighth departure");
        assertEquals(expected, sent);
    }

    /**
     * Departure times of {@code n} events of {@code bytes}, all offered at 0, through exact token
     * buckets in tandem: an event leaves as soon as no bucket is in debt and is charged to each
     * when it leaves; bucket j refills at {@code rates[j]} bytes per second up to {@code depths[j]}
     * bytes, full at the start. Tokens are counted in units of 1e-9 byte, so nothing is rounded but
     * the departure instant, up to the next nanosecond.
     */
    private static List<Long> tokenBuckets(int n, int bytes, long[] rates, long[] depths) {
        long[] tokens = new long[rates.length];
        long[] last = new long[rates.length];
        for (int j = 0; j < rates.length; j++) {
            tokens[j] = depths[j] * S;
        }
        List<Long> out = new ArrayList<>();
        long t = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < rates.length; j++) {
                if (tokens[j] < 0) {
                    t = Math.max(t, last[j] - Math.floorDiv(tokens[j], rates[j])); // ceil(debt / rate)
                }
            }
            for (int j = 0; j < rates.length; j++) {
                tokens[j] = Math.min(depths[j] * S, tokens[j] + (t - last[j]) * rates[j]) - bytes * S;
                last[j] = t;
            }
            out.add(t);
        }
        return out;
    }

    @Test
    void timesAtTheEndsOfTheClockNeitherOverflowNorSpin() {
        assertTimeoutPreemptively(java.time.Duration.ofSeconds(5), () -> {
            // Half a second before the end of the clock (the estimator's next tick is past it): a flow
            // of 1 B/s sends its 1,600-byte bucket and then owes 400 s, beyond the last representable
            // instant; so does a 100 B/s link after one 1,000-byte frame (10 s).
            long late = Long.MAX_VALUE - S / 2;
            List<Ev> released = new ArrayList<>();
            LinkScheduler<Ev> s = new LinkScheduler<>(link(1_000, 1_000, 1_000), 4, released::add,
                    new EstimatorSettings(S, 1.0), late);
            int f = s.addFlow(FlowSpec.of(1, ServiceClass.BE, 1, 0, 1, 10, ""), late);
            for (int i = 0; i < 3; i++) {
                assertTrue(s.enqueue(f, new Ev(f, i, late, Long.MAX_VALUE, Long.MAX_VALUE, 1_000, false), 1_000,
                        Long.MAX_VALUE, Long.MAX_VALUE, late));
            }
            assertNotNull(s.dequeue(late));
            assertNotNull(s.dequeue(late + 10 * MS));
            long now = late + 20 * MS;
            assertNull(s.dequeue(now));
            assertEquals(Long.MAX_VALUE, s.nextWakeNanos(now), "the third can only go after the end of time");
            assertNull(s.dequeue(Long.MAX_VALUE - 1));
            assertEquals(1, s.backlog());
            QueueStatistics q = s.statistics().flow(1).queue();
            assertTrue(Double.isFinite(q.arrivalRate()) && Double.isFinite(q.departureRate()), q.toString());

            Map<ServiceClass, Shaping> shares = new EnumMap<>(ServiceClass.class);
            for (ServiceClass c : new ServiceClass[] {ServiceClass.HRT, ServiceClass.LRT, ServiceClass.BE}) {
                shares.put(c, Shaping.of(10, 100));
            }
            LinkScheduler<Ev> slow = new LinkScheduler<>(LinkSpec.of(100, WireFormat.MAX_FRAME_LENGTH, shares, 4),
                    4, released::add, new EstimatorSettings(S, 1.0), late);
            assertTrue(slow.enqueueControl(new Ev(-1, 0, late, Long.MAX_VALUE, Long.MAX_VALUE, 1_000, true), 1_000, late));
            assertTrue(slow.enqueueControl(new Ev(-1, 1, late, Long.MAX_VALUE, Long.MAX_VALUE, 1_000, true), 1_000, late));
            assertNotNull(slow.dequeue(late));
            long wake = slow.nextWakeNanos(late);
            assertTrue(wake > late, "the link owes 10 s: " + wake);
            assertNull(slow.dequeue(Long.MAX_VALUE - 1));

            // Deadlines and expiries at the ends: the earliest goes first, one that expired at the
            // beginning of time is a miss, one that never expires is never dropped.
            long t = 0;
            LinkScheduler<Ev> edf = new LinkScheduler<>(defaultLink(), 4, released::add, new EstimatorSettings(S, 1.0), t);
            int g = edf.addFlow(FlowSpec.of(2, ServiceClass.HRT, 50_000, 0, LINK, 10, ""), t);
            int h = edf.addFlow(FlowSpec.of(3, ServiceClass.HRT, 50_000, 0, LINK, 10, ""), t);
            assertTrue(edf.enqueue(g, new Ev(g, 0, t, Long.MAX_VALUE, Long.MAX_VALUE, 100, false), 100, Long.MAX_VALUE,
                    Long.MAX_VALUE, t));
            assertTrue(edf.enqueue(h, new Ev(h, 0, t, Long.MIN_VALUE, Long.MIN_VALUE, 100, false), 100, Long.MIN_VALUE,
                    Long.MIN_VALUE, t));
            assertTrue(edf.enqueue(h, new Ev(h, 1, t, Long.MIN_VALUE + 1, Long.MAX_VALUE, 100, false), 100,
                    Long.MIN_VALUE + 1, Long.MAX_VALUE, t));
            released.clear();
            Ev first = edf.dequeue(t);
            assertEquals(1, first.seq(), "earliest deadline first; the expired one dropped on the way");
            assertEquals(1, released.size());
            assertEquals(Long.MIN_VALUE, released.get(0).expiry());
            assertEquals(g, edf.dequeue(Long.MAX_VALUE - 1).flow(), "never expires, even at the end of time");
        });
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
        Map<ServiceClass, Shaping> shares = new EnumMap<>(ServiceClass.class);
        for (ServiceClass c : new ServiceClass[] {ServiceClass.HRT, ServiceClass.LRT, ServiceClass.BE}) {
            shares.put(c, Shaping.of(LINK / 4, LINK));
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LinkSpec.of(LINK, 1_471, shares, 16)).getMessage()
                .contains("one maximum frame (1472 B)"));
        assertEquals(1_472, LinkSpec.of(LINK, 1_472, shares, 16).burst());
        // One 50 us tick of 100 kB/s is 5 B.
        assertEquals(5 + 1_472, LinkSpec.of(LINK, shares).burst());
    }
}
