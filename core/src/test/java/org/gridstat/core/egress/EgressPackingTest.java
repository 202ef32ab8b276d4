package org.gridstat.core.egress;

import static org.gridstat.core.egress.AgentHarness.MS;
import static org.gridstat.core.egress.AgentHarness.S;
import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.egress.AgentHarness.FakeTransmitter;
import org.gridstat.core.egress.AgentHarness.Sent;
import org.gridstat.core.emulation.LinkEmulator;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.sched.Shaping;
import org.gridstat.core.wire.BatchHeaderWriter;
import org.gridstat.core.wire.WireFormat;
import org.junit.jupiter.api.Test;

/** How the pump packs what one duty cycle releases into datagrams, on a manual clock. */
class EgressPackingTest {
    private static Object[] events(long variable, String prefix, int n) {
        Object[] in = new Object[2 * n];
        for (int i = 0; i < n; i++) {
            in[2 * i] = variable;
            in[2 * i + 1] = prefix + i;
        }
        return in;
    }

    private static List<Integer> sizes(FakeTransmitter tx) {
        return tx.datagrams.stream().map(List::size).toList();
    }

    private static List<String> names(FakeTransmitter tx) {
        return tx.sent.stream().map(Sent::event).toList();
    }

    @Test
    void anEventAloneInItsCycleLeavesAloneAtOnceAndNothingWaitsToFillADatagram() {
        AgentHarness h = new AgentHarness(AgentHarness.link(1_000_000_000, 1_000_000));
        h.install(1, 7, 0, ServiceClass.HRT, 64);
        FakeTransmitter tx = h.links.get(0);
        long start = h.clock.nanoTime();
        h.cycle(7L, "a");
        assertEquals(List.of(List.of("a")), tx.datagrams);
        assertEquals(start, tx.sent.get(0).at(), "sent in the cycle it arrived in");
        assertEquals(start + S, h.wakeups.requested, "no wake-up but the estimator's: nothing is held back");
        h.clock.advance(MS);
        h.cycle(7L, "b");
        assertEquals(List.of(List.of("a"), List.of("b")), tx.datagrams);
        assertEquals(start + MS, tx.sent.get(1).at());
        assertEquals(2, h.agent.pump(0).counters().get(LinkCounter.DATAGRAMS));
    }

    @Test
    void whatOneCycleReleasesLeavesInAsFewDatagramsAsTheMtuAllowsInOrder() {
        // 260-byte events: 12 + 2n + 260n <= 1472 holds up to n = 5.
        AgentHarness small = new AgentHarness(null, WireFormat.MAX_FRAME_LENGTH, AgentHarness.link(1_000_000_000, 1_000_000));
        small.install(1, 7, 0, ServiceClass.BE, 64);
        small.cycle(events(7L, "e", 12));
        FakeTransmitter tx = small.links.get(0);
        assertEquals(List.of(5, 5, 2), sizes(tx));
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            expected.add("e" + i);
        }
        assertEquals(expected, names(tx), "in the scheduler's order");
        assertEquals(12, small.agent.pump(0).counters().get(LinkCounter.SENT));
        assertEquals(3, small.agent.pump(0).counters().get(LinkCounter.DATAGRAMS));

        AgentHarness jumbo = new AgentHarness(null, WireFormat.MAX_DATAGRAM_LENGTH, AgentHarness.link(1_000_000_000, 1_000_000));
        jumbo.install(1, 7, 0, ServiceClass.BE, 64);
        jumbo.cycle(events(7L, "e", 12));
        assertEquals(List.of(12), sizes(jumbo.links.get(0)), "a loopback-sized datagram takes them all");
    }

    @Test
    void eventsThatShareADatagramShareItsHeadersSoAFlowAllowedTheWholeLinkFillsIt() {
        // A 1 MB/s link and one best-effort flow allowed all of it (its ceiling and its class's),
        // offered 20 events of 260 bytes every millisecond, in one duty cycle: each cycle the pacer
        // lets 3 or 4 go (1,000 bytes of credit), packed into one datagram, about 270 bytes on the
        // wire an event. Charged 288 an event (a lone datagram's), the flow's ceiling would hold the
        // link to 270 / 288 = 94 % of its capacity.
        long capacity = 1_000_000;
        AgentHarness h = oneFlowUpTo(capacity, 4_000, capacity);
        FakeTransmitter tx = h.links.get(0);
        long seconds = 2;
        long wire = offerTwentyAMillisecond(h, seconds);
        long packed = tx.datagrams.stream().filter(d -> d.size() > 1).count();
        assertTrue(packed > tx.datagrams.size() / 2, "most datagrams packed: " + packed + " of " + tx.datagrams.size());
        double used = wire / (double) (seconds * capacity);
        assertTrue(used >= 0.99 && used <= 1.0 + 4_000.0 / (seconds * capacity),
                "the link kept full, and no fuller than its capacity and burst: " + used);
    }

    @Test
    void aPackedFlowIsHeldToItsCeilingOnTheWireNotAbove() {
        // A 10 MB/s link and a best-effort flow whose ceiling is 1 MB/s, offered 20 events of 260
        // bytes every millisecond: the flow's ceiling, not the link, holds it, to its ceiling counted
        // on the wire with its datagrams' shared headers: given back no more than it saved.
        long ceiling = 1_000_000;
        AgentHarness h = oneFlowUpTo(10_000_000, 40_000, ceiling);
        FakeTransmitter tx = h.links.get(0);
        long seconds = 2;
        long wire = offerTwentyAMillisecond(h, seconds);
        assertTrue(tx.datagrams.stream().anyMatch(d -> d.size() > 1), "packed");
        long cburst = Shaping.defaultBurst(ceiling);
        double used = wire / (double) (seconds * ceiling);
        assertTrue(used >= 0.98 && used <= 1.0 + (double) cburst / (seconds * ceiling),
                "held to its ceiling on the wire, burst aside: " + used);
    }

    /** A link of {@code capacity} and {@code burst}, and one best-effort flow of variable 7 that may borrow up to {@code ceiling}. */
    private static AgentHarness oneFlowUpTo(long capacity, long burst, long ceiling) {
        AgentHarness h = new AgentHarness(null, WireFormat.MAX_FRAME_LENGTH, AgentHarness.link(capacity, burst));
        h.install(new FlowEntry(1, 7, 0, FlowSpec.of(1, ServiceClass.BE, 10_000, 0, ceiling, 64, ""), new long[0], 0, 0));
        return h;
    }

    /**
     * Offers variable 7 twenty 260-byte events in one duty cycle every millisecond for
     * {@code seconds}; returns the bytes the first link's datagrams took on the wire (frames, IP and
     * UDP headers, batch headers).
     */
    private static long offerTwentyAMillisecond(AgentHarness h, long seconds) {
        long start = h.clock.nanoTime();
        for (int ms = 0; ms < seconds * 1000; ms++) {
            h.cycle(events(7L, "e" + ms + "-", 20));
            h.clock.advance(start + (ms + 1) * MS - h.clock.nanoTime());
        }
        long wire = 0;
        for (List<String> d : h.links.get(0).datagrams) {
            int n = d.size();
            wire += 260L * n + WireFormat.DATAGRAM_OVERHEAD + (n > 1 ? BatchHeaderWriter.headerLength(n) : 0);
        }
        return wire;
    }

    @Test
    void aLongCycleFillsItsDatagramsAndKeepsNoneOpenLongerThanFourPumps() {
        // The agent pumps every 16 copies of a cycle; a pump in mid-cycle may keep its last
        // datagram open for the next copies, four pumps at most (64 copies), and the cycle's end
        // closes what is open.
        AgentHarness h = new AgentHarness(null, WireFormat.MAX_DATAGRAM_LENGTH, AgentHarness.link(1_000_000_000, 1_000_000));
        h.install(1, 7, 0, ServiceClass.BE, 256);
        h.cycle(events(7L, "e", 100));
        FakeTransmitter tx = h.links.get(0);
        assertEquals(List.of(64, 36), sizes(tx), "not cut every 16, nor held for the whole cycle");
        assertEquals(2, tx.flushes, "each datagram flushed as it closed");
        h.cycle(events(7L, "f", 10));
        assertEquals(List.of(64, 36, 10), sizes(tx), "a short cycle: one datagram, at its end");
    }

    @Test
    void anOpenDatagramAgesByTheCyclesCopiesNotItsLinksAndUrgentOnesAreNeverHeld() {
        for (ServiceClass onB : new ServiceClass[] {ServiceClass.BE, ServiceClass.HRT}) {
            AgentHarness h = new AgentHarness(null, WireFormat.MAX_DATAGRAM_LENGTH,
                    AgentHarness.link(1_000_000_000, 1_000_000), AgentHarness.link(1_000_000_000, 1_000_000));
            h.install(1, 7, 0, ServiceClass.BE, 1024);
            h.install(2, 8, 1, onB, 64);
            List<Object> in = new ArrayList<>(List.of(events(7L, "a", 15)));
            in.add(8L);
            in.add("b");
            in.addAll(List.of(events(7L, "c", 200)));
            h.cycle(in.toArray());
            int at = h.written.indexOf("b");
            if (onB == ServiceClass.HRT) {
                assertTrue(at < 16, "the HRT copy left at the pump that took it, before any later copy: " + at);
            } else {
                // The pump at 16 copies kept b open; four of the cycle's pumps later (64 copies) it left,
                // although link b got nothing more.
                assertTrue(at > 15 && at < 80, "b left after " + at + " copies, not with the batch's end");
            }
            assertEquals(List.of(List.of("b")), h.links.get(1).datagrams);
        }
    }

    @Test
    void aDatagramNeverMixesLanesAndEdfOrderIsKept() {
        AgentHarness h = new AgentHarness(AgentHarness.link(1_000_000_000, 1_000_000));
        h.install(1, 7, 0, ServiceClass.HRT, 64);
        h.install(2, 8, 0, ServiceClass.BE, 64);
        FakeTransmitter tx = h.links.get(0);
        tx.priorityLane = true;
        h.cycle(8L, "b0", 8L, "b1", 7L, "h0", 7L, "h1");
        assertEquals(List.of(List.of("h0", "h1"), List.of("b0", "b1")), tx.datagrams,
                "HRT first, in a datagram of its own lane");
        assertEquals(List.of(1, 0), tx.datagramLanes);

        AgentHarness one = new AgentHarness(AgentHarness.link(1_000_000_000, 1_000_000));
        one.install(1, 7, 0, ServiceClass.HRT, 64);
        one.install(2, 8, 0, ServiceClass.BE, 64);
        one.cycle(8L, "b0", 8L, "b1", 7L, "h0", 7L, "h1");
        assertEquals(List.of(List.of("h0", "h1", "b0", "b1")), one.links.get(0).datagrams, "one lane: one datagram");
    }

    @Test
    void anEmulatedLinkSerializesDelaysAndLosesEachDatagramWhole() {
        // 1 B/us wire, 5 ms propagation: a 5-event batch (1,300 + 22 bytes, 28 of IP and UDP headers)
        // then a 2-event one (520 + 16 + 28).
        LinkEmulator wire = new LinkEmulator(1_000_000, LinkEmulator.UNBOUNDED, 5 * MS, 0, 0, 0, 1, AgentHarness.T0);
        AgentHarness h = new AgentHarness(wire, EgressPump.DEFAULT_MTU, AgentHarness.link(1_000_000_000, 1_000_000));
        h.install(1, 7, 0, ServiceClass.BE, 64);
        long start = h.clock.nanoTime();
        h.cycle(events(7L, "e", 7));
        FakeTransmitter tx = h.links.get(0);
        assertTrue(tx.sent.isEmpty(), "in flight");
        assertEquals(7, h.agent.pump(0).delayed());
        h.runUntil(start + 10 * MS);
        assertEquals(List.of(5, 2), sizes(tx), "each datagram arrives whole");
        assertEquals(start + 5 * MS + 1_350_000, tx.sent.get(0).at());
        assertEquals(start + 5 * MS + 1_350_000, tx.sent.get(4).at());
        assertEquals(start + 5 * MS + 1_914_000, tx.sent.get(5).at(), "serialized after the first, by its own bytes");

        LinkEmulator lossy = new LinkEmulator(0, LinkEmulator.UNBOUNDED, 0, 1.0, 0, 0, 1, AgentHarness.T0);
        AgentHarness l = new AgentHarness(lossy, EgressPump.DEFAULT_MTU, AgentHarness.link(1_000_000_000, 1_000_000));
        l.install(1, 7, 0, ServiceClass.BE, 64);
        l.cycle(events(7L, "e", 7));
        assertTrue(l.links.get(0).sent.isEmpty());
        assertEquals(7, l.agent.pump(0).counters().get(LinkCounter.EMULATION_LOST), "every copy of a lost datagram counted");
        assertEquals(0, l.agent.pump(0).counters().get(LinkCounter.DATAGRAMS));
        assertEquals(7, l.refs.released.size(), "and released");
    }
}
