package org.gridstat.sim.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.gridstat.sim.engine.EventLoop;
import org.junit.jupiter.api.Test;

/** A link's framing, and fragments that reach its queue one by one over an access line. */
class SimLinkTest {
    private static final long MS = 1_000_000L;
    /** 1,815 bytes of UDP payload: a 1,500-byte first fragment and a 363-byte second. */
    private static final int FRAME = 1815;

    private final EventLoop loop = new EventLoop();
    private final List<String> arrivals = new ArrayList<>();

    private SimLink link(LinkModel m) {
        SimLink l = new SimLink("a->b", loop, m, new SplittableRandom(1));
        l.connect(d -> arrivals.add(d.opaque().sequence() + "@" + loop.now()));
        return l;
    }

    private static SimDatagram datagram(long sequence) {
        return SimDatagram.of(SimPacket.opaque(FRAME, 7, sequence, 0, 0));
    }

    @Test
    void atmCellsCarryEachPacketAndTheCapacityCountsTheCells() {
        // 1,500 + 16 bytes of LLC/SNAP and AAL5 trailer: 32 cells of 53 bytes; 363 + 16: 8 cells
        assertEquals(1696, LinkModel.Framing.ATM.lineBytes(1500));
        assertEquals(424, LinkModel.Framing.ATM.lineBytes(363));
        assertEquals(1500, LinkModel.Framing.IP.lineBytes(1500));
        SimLink l = link(LinkModel.of(2120, 0).withLine(LinkModel.Framing.ATM, 0)); // 2,120 line bytes a second
        loop.at(0, () -> l.send(datagram(1)));
        loop.runUntil(10_000 * MS);
        assertEquals(List.of("1@" + 1_000 * MS), arrivals, "both packets in cells take exactly one second");
        assertEquals(1863, l.bytesOnWire(), "the wire's IP bytes, the framing not counted");
    }

    @Test
    void fragmentsOverAnAccessLineInterleaveAndTailDropWastesTheWireOnTheBrokenOnes() {
        // queue of 3; two frames sent at the same instant: a#0, b#0, then (120 us later) a#1, b#1
        SimLink l = link(new LinkModel(1863, 0, 1500, 3, LinkModel.Discipline.FIFO, 0, LinkModel.BurstLoss.NONE, 0, 0)
                .withLine(LinkModel.Framing.IP, 12_500_000));
        loop.at(0, () -> l.send(datagram(1)));
        loop.at(0, () -> l.send(datagram(2)));
        loop.runUntil(10_000 * MS);
        // the wire carried a#0, b#0 (wasted), a#1: a arrives after 1,500 + 1,500 + 363 bytes
        assertEquals(List.of("1@" + 3363 * 1_000 * MS / 1863), arrivals);
        assertEquals(1, l.datagramsLost(SimLink.Loss.QUEUE));
        assertEquals(3, l.packetsOnWire());
        assertEquals(0, l.outstanding(), "every datagram's fate is sealed");
    }

    @Test
    void aDatagramAwareQueueKeepsRoomForTheSecondFragmentOfADatagramItBegan() {
        SimLink l = link(new LinkModel(1863, 0, 1500, 3, LinkModel.Discipline.DATAGRAM_FIFO, 0, LinkModel.BurstLoss.NONE,
                0, 0).withLine(LinkModel.Framing.IP, 12_500_000));
        loop.at(0, () -> l.send(datagram(1)));
        loop.at(0, () -> l.send(datagram(2))); // a#0 and a#1's kept slot leave one: b is refused whole
        loop.runUntil(10_000 * MS);
        assertEquals(List.of("1@" + 1_000 * MS), arrivals, "a alone on the wire: nothing wasted");
        assertEquals(1, l.datagramsLost(SimLink.Loss.QUEUE));
        assertEquals(2, l.packetsOnWire());
        assertEquals(0, l.outstanding());
    }

    @Test
    void withoutAnAccessLineADatagramsFragmentsArriveTogether() {
        SimLink l = link(new LinkModel(1863, 0, 1500, 3, LinkModel.Discipline.FIFO, 0, LinkModel.BurstLoss.NONE, 0, 0));
        loop.at(0, () -> l.send(datagram(1)));
        loop.at(0, () -> l.send(datagram(2))); // a#0, a#1, b#0 queued; b#1 dropped
        loop.runUntil(10_000 * MS);
        assertEquals(List.of("1@" + 1_000 * MS), arrivals, "a's fragments went back to back");
        assertEquals(3, l.packetsOnWire());
        assertEquals(0, l.outstanding());
    }

    private static long sealed(SimLink l) {
        long s = l.datagramsDelivered();
        for (SimLink.Loss why : SimLink.Loss.values()) {
            s += l.datagramsLost(why);
        }
        return s;
    }

    @Test
    void theBooksBalanceMidRunWhileABrokenDatagramStillHasPacketsQueuedOrToCome() {
        SimLink tail = link(new LinkModel(247_500, MS, 1500, 3, LinkModel.Discipline.FIFO, 0, LinkModel.BurstLoss.NONE,
                0, 0));
        SimLink aware = link(new LinkModel(247_500, MS, 1500, 3, LinkModel.Discipline.DATAGRAM_FIFO, 0,
                LinkModel.BurstLoss.NONE, 0, 0).withLine(LinkModel.Framing.ATM, 12_500_000));
        loop.at(0, () -> {
            tail.send(datagram(1)); // queued whole
            tail.send(datagram(2)); // its first fragment queued, its second dropped: lost, a packet still queued
            aware.send(datagram(3));
            aware.send(datagram(4)); // refused whole while its second fragment is still on the access line
        });
        loop.runUntil(50_000);
        for (SimLink l : List.of(tail, aware)) {
            assertEquals(2, l.datagramsSent());
            assertEquals(1, sealed(l), "one lost");
            assertEquals(1, l.outstanding(), "one on its way");
        }
    }

    @Test
    void fragmentsStillOnTheAccessLineCountAgainstTheRoomTheRouterSees() {
        SimLink l = link(new LinkModel(247_500, MS, 1500, 2, LinkModel.Discipline.SCHEDULER, 0, LinkModel.BurstLoss.NONE,
                0, 0).withLine(LinkModel.Framing.IP, 12_500_000));
        List<Boolean> room = new ArrayList<>();
        loop.at(0, () -> {
            room.add(l.hasRoom(FRAME));
            l.send(datagram(1)); // its second fragment is still on the line, but has a slot waiting
            room.add(l.hasRoom(FRAME));
        });
        loop.runUntil(1_000 * MS);
        assertEquals(List.of(true, false), room);
        assertEquals(0, l.datagramsLost(SimLink.Loss.QUEUE));
    }

    @Test
    void aDatagramHandedOverFirstReachesTheQueueFirst() {
        SimLink l = link(new LinkModel(1_000_000, 0, 1500, 10, LinkModel.Discipline.FIFO, 0, LinkModel.BurstLoss.NONE, 0,
                0).withLine(LinkModel.Framing.IP, 12_500_000));
        loop.at(0, () -> {
            l.send(datagram(1)); // two fragments
            l.send(SimDatagram.of(SimPacket.opaque(100, 7, 2, 0, 0))); // one packet
        });
        loop.runUntil(1_000 * MS);
        // on the wire: 1's first fragment (1,500 bytes), 2 (128), then 1's second, 120 us behind its first
        assertEquals(List.of("2@" + 1_628_000, "1@" + 1_991_000), arrivals,
                "the one-packet datagram queues behind the first fragment handed over before it");
    }

    /** Random links, faults and sizes: once drained, every datagram is accounted for and no room stays promised. */
    @Test
    void drainedLinksBalanceTheirBooksAndKeepNoRoomPromised() {
        for (long seed = 1; seed <= 200; seed++) {
            EventLoop lp = new EventLoop();
            SplittableRandom r = new SplittableRandom(seed);
            LinkModel.Discipline d = LinkModel.Discipline.values()[r.nextInt(3)];
            int q = 1 + r.nextInt(12);
            boolean outages = r.nextBoolean();
            LinkModel m = new LinkModel(50_000 + r.nextInt(500_000), r.nextInt(3) * MS, 576 + r.nextInt(1000), q, d,
                    r.nextInt(3) == 0 ? 0.1 : 0, r.nextBoolean() ? new LinkModel.BurstLoss(0.1, 0.3, 0.8)
                    : LinkModel.BurstLoss.NONE, outages ? 20 * MS : 0, outages ? 5 * MS : 0,
                    r.nextBoolean() ? LinkModel.Framing.ATM : LinkModel.Framing.IP,
                    r.nextBoolean() ? 0 : LinkModel.MIN_ACCESS_RATE + r.nextLong(20_000_000));
            SimLink l = new SimLink("x", lp, m, new SplittableRandom(seed));
            long[] got = new long[1];
            l.connect(x -> got[0]++);
            for (int i = 0; i < 400; i++) {
                int size = r.nextInt(4) == 0 ? 1 + r.nextInt(100) : 1 + r.nextInt(9000);
                lp.at(r.nextLong(2_000 * MS), () -> l.send(SimDatagram.of(SimPacket.opaque(size, 7, 0, 0, 0))));
            }
            for (int i = 0; i < 10; i++) {
                boolean down = r.nextBoolean();
                lp.at(r.nextLong(2_000 * MS), () -> l.cut(down));
            }
            lp.at(2_000 * MS, () -> l.cut(false));
            lp.runUntil(600_000 * MS);
            String context = "seed " + seed + ": " + m;
            assertEquals(0, l.queued(), context);
            assertEquals(0, l.outstanding(), context);
            assertEquals(l.datagramsSent(), sealed(l), context);
            assertEquals(got[0], l.datagramsDelivered(), context);
            int wholeQueue = q * ((m.mtu() - 20) & ~7) - 8;
            if (wholeQueue > 0) {
                assertTrue(l.hasRoom(wholeQueue), "a datagram filling the queue fits again: " + context);
            }
        }
    }
}
