package org.gridstat.sim.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
