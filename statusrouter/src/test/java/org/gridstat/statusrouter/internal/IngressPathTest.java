package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.filter.SampleGrid;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.time.ManualClock;
import org.gridstat.core.wire.BatchHeaderWriter;
import org.gridstat.core.wire.DatagramReader;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.core.wire.StatusEventDecoder;
import org.gridstat.core.wire.StatusEventEncoder;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.statusrouter.api.RouterCounters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The ingress handler, data path and egress links wired as in a router, on embedded channels and
 * a manual clock: what each out-link is handed, byte for byte, and every buffer given back.
 */
class IngressPathTest {
    private static final long S = 1_000_000_000L;
    private static final long T0 = 1_790_000_000L * S;
    private static final InetSocketAddress SENDER = new InetSocketAddress("127.0.0.1", 20001);

    private final ManualClock clock = new ManualClock(T0);
    private final List<ByteBuf> made = new ArrayList<>();
    private DataPathCounters ingressCounters;
    private DataPath path;
    private EmbeddedChannel ingress;
    private EmbeddedChannel linkA;
    private EmbeddedChannel linkB;

    private void wire(String[] links, String[] flows) {
        // Freeze the embedded loops' own time: the test moves it together with the manual clock.
        RouterSettings s = RouterSettings.of("r1", "127.0.0.1:0", 1, "nio", 1 << 20, links, flows, new String[0],
                S, 0.5, 64);
        linkA = new EmbeddedChannel();
        linkB = new EmbeddedChannel();
        linkA.freezeTime();
        linkB.freezeTime();
        path = new DataPath(s, linkA.eventLoop(), clock, clock, new DataPathCounters());
        linkA.pipeline().addLast(path.links[0]);
        linkB.pipeline().addLast(path.links[1]);
        path.links[0].attach(linkA);
        path.links[1].attach(linkB);
        path.start();
        ingressCounters = new DataPathCounters();
        ingress = new EmbeddedChannel(new IngressHandler(new FrameIntake(path, ingressCounters)));
    }

    @AfterEach
    void allBuffersReturned() {
        if (path != null) {
            path.discard();
        }
        for (EmbeddedChannel ch : new EmbeddedChannel[] {linkA, linkB}) {
            ByteBuf b;
            while (ch != null && (b = ch.readOutbound()) != null) {
                b.release();
            }
        }
        for (ByteBuf b : made) {
            assertEquals(0, b.refCnt(), "every received buffer released");
        }
    }

    private ByteBuf frame(long variable, long seq, long sourceTime, int hops) {
        return frame(variable, seq, sourceTime, hops, false);
    }

    /**
     * A double event (56 bytes) due 100 ms after its source time, or with {@code sample} a 260-byte
     * raw one like the experiments', due in 10 s.
     */
    private ByteBuf frame(long variable, long seq, long sourceTime, int hops, boolean sample) {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(2048);
        ByteBuffer nio = buf.internalNioBuffer(0, 2048);
        StatusEventEncoder e = new StatusEventEncoder().wrap(nio, nio.position()).variableId(variable).sequence(seq)
                .sourceTimeNanos(sourceTime).deadlineNanos(sourceTime + (sample ? 10 * S : 100_000_000L))
                .serviceClass(ServiceClass.HRT).hopCount(hops);
        int len = (sample ? e.rawPayloadLength(212) : e.doublePayload(seq / 2.0)).seal();
        made.add(buf);
        return buf.writerIndex(len);
    }

    /** The events a link sent, in order: a lone frame as it is, each event of a batch as a slice of its own. */
    private static List<ByteBuf> drainOutbound(EmbeddedChannel ch) {
        List<ByteBuf> out = new ArrayList<>();
        DatagramReader reader = new DatagramReader();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            ByteBuffer nio = b.nioBuffer();
            assertEquals(RejectReason.NONE, reader.open(nio, 0, nio.remaining()), "a datagram the router sent");
            if (!reader.isBatch()) {
                out.add(b);
                continue;
            }
            while (reader.next()) {
                out.add(b.retainedSlice(b.readerIndex() + reader.eventOffset(), reader.eventLength()));
            }
            b.release();
        }
        return out;
    }

    private RouterCounters counters() {
        return DataPathCounters.snapshot(List.of(ingressCounters), path);
    }

    @Test
    void eachLinkGetsItsRateWithTheHopStampedAndFramesIntact() {
        wire(new String[] {"name=a address=127.0.0.1:21001", "name=b address=127.0.0.1:21002"},
                new String[] {"id=1 variable=1 link=a class=HRT", "id=2 variable=1 link=b class=HRT rates=20 publisher=60",
                    "id=3 variable=2 link=b class=LRT"});
        SampleGrid sixty = SampleGrid.ofRate(60);
        long t = T0;
        for (int i = 0; i < 60; i++, t = sixty.next(t)) {
            clock.set(t);
            ingress.writeInbound(new DatagramPacket(frame(1, i, t, 2), null, SENDER));
        }
        ingress.writeInbound(new DatagramPacket(frame(2, 0, t, 0), null, SENDER));
        List<ByteBuf> onA = drainOutbound(linkA);
        List<ByteBuf> onB = drainOutbound(linkB);
        assertEquals(60, onA.size());
        assertEquals(21, onB.size(), "20 Hz of variable 1 plus the one event of variable 2");

        StatusEventDecoder d = new StatusEventDecoder();
        for (int i = 0; i < 60; i++) {
            ByteBuf c = onA.get(i);
            assertEquals(RejectReason.NONE, d.wrap(c.nioBuffer(), 0, c.readableBytes()));
            assertEquals(i, d.sequence());
            assertEquals(3, d.hopCount(), "hop stamped, checksum resealed");
            assertEquals(i / 2.0, d.doubleValue());
        }
        SampleGrid twenty = SampleGrid.ofRate(20);
        for (int i = 0; i < 20; i++) {
            ByteBuf c = onB.get(i);
            d.wrap(c.nioBuffer(), 0, c.readableBytes());
            assertEquals(d.sourceTimeNanos(), twenty.floor(d.sourceTimeNanos()), "on the 20 Hz grid");
        }
        onA.forEach(ByteBuf::release);
        onB.forEach(ByteBuf::release);

        RouterCounters c = counters();
        assertEquals(61, c.received());
        assertEquals(81, c.forwarded());
        assertEquals(40, c.engine().filtered());
        assertEquals(60, c.links().get("a").flow(1).queue().departures());
        assertEquals(20, c.links().get("b").flow(2).queue().departures());
    }

    @Test
    void badInputIsCountedByReasonAndNothingLeaks() {
        wire(new String[] {"name=a address=127.0.0.1:21001", "name=b address=127.0.0.1:21002"},
                new String[] {"id=1 variable=1 link=a"});
        ingress.writeInbound(new DatagramPacket(Unpooled.wrappedBuffer(new byte[5]), null, SENDER));
        ingress.writeInbound(new DatagramPacket(Unpooled.wrappedBuffer(new byte[1500]), null, SENDER));
        ingress.writeInbound(new DatagramPacket(Unpooled.wrappedBuffer(new byte[100]), null, SENDER));
        ByteBuf corrupt = frame(1, 1, T0, 0);
        corrupt.setByte(50, corrupt.getByte(50) ^ 1);
        ingress.writeInbound(new DatagramPacket(corrupt, null, SENDER));
        ingress.writeInbound(new DatagramPacket(frame(99, 1, T0, 0), null, SENDER));
        ingress.writeInbound(new DatagramPacket(frame(1, 2, T0, WireFormat.MAX_HOP_COUNT), null, SENDER));
        ingress.writeInbound(new DatagramPacket(frame(1, 3, T0, 0), null, SENDER));
        assertTrue(ingress.isOpen());
        ingress.checkException();
        List<ByteBuf> onA = drainOutbound(linkA);
        assertEquals(1, onA.size());
        onA.forEach(ByteBuf::release);

        RouterCounters c = counters();
        assertEquals(7, c.received());
        assertEquals(1, c.forwarded());
        assertEquals(1, c.dropped(RejectReason.TRUNCATED));
        assertEquals(1, c.dropped(RejectReason.OVERSIZE));
        assertEquals(1, c.dropped(RejectReason.BAD_MAGIC));
        assertEquals(1, c.dropped(RejectReason.CHECKSUM_MISMATCH));
        assertEquals(1, c.dropped(RejectReason.UNKNOWN_VARIABLE));
        assertEquals(1, c.dropped(RejectReason.HOP_LIMIT));
    }

    /** One datagram holding {@code frames} as a batch; the frames are released. */
    private ByteBuf batchOf(ByteBuf... frames) {
        int[] lengths = new int[frames.length];
        int total = 0;
        for (int i = 0; i < frames.length; i++) {
            lengths[i] = frames[i].readableBytes();
            total += lengths[i];
        }
        ByteBuffer header = ByteBuffer.allocate(12 + 2 * frames.length);
        int at = new BatchHeaderWriter().write(header, 0, lengths, frames.length);
        ByteBuf batch = PooledByteBufAllocator.DEFAULT.directBuffer(at + total);
        batch.writeBytes(header.array(), 0, at);
        for (ByteBuf f : frames) {
            batch.writeBytes(f);
            f.release();
        }
        made.add(batch);
        return batch;
    }

    @Test
    void aBatchDeliversItsGoodEventsAndCountsEachBadOneOnItsOwn() {
        wire(new String[] {"name=a address=127.0.0.1:21001", "name=b address=127.0.0.1:21002"},
                new String[] {"id=1 variable=1 link=a"});
        ByteBuf corrupt = frame(1, 1, T0, 0);
        corrupt.setByte(50, corrupt.getByte(50) ^ 1);
        ingress.writeInbound(new DatagramPacket(batchOf(frame(1, 0, T0, 0), corrupt, frame(99, 2, T0, 0),
                frame(1, 3, T0, WireFormat.MAX_HOP_COUNT), frame(1, 4, T0, 0)), null, SENDER));
        ByteBuf damaged = batchOf(frame(1, 5, T0, 0), frame(1, 6, T0, 0));
        damaged.setByte(4, 9); // the event count: the table's checksum no longer matches
        ingress.writeInbound(new DatagramPacket(damaged, null, SENDER));
        ingress.checkException();
        List<ByteBuf> onA = drainOutbound(linkA);
        List<Long> sequences = new ArrayList<>();
        for (ByteBuf b : onA) {
            sequences.add(b.getLong(b.readerIndex() + WireFormat.SEQUENCE_OFFSET));
            b.release();
        }
        assertEquals(List.of(0L, 4L), sequences, "the good events of the batch, in order");

        RouterCounters c = counters();
        assertEquals(6, c.received(), "five events and a datagram dropped unread");
        assertEquals(1, c.batchesReceived());
        assertEquals(2, c.forwarded());
        assertEquals(1, c.datagramsSent(), "the two left together");
        assertEquals(1, c.dropped(RejectReason.CHECKSUM_MISMATCH));
        assertEquals(1, c.dropped(RejectReason.UNKNOWN_VARIABLE));
        assertEquals(1, c.dropped(RejectReason.HOP_LIMIT));
        assertEquals(1, c.dropped(RejectReason.BATCH_DAMAGED));
    }

    /**
     * Another loop's intake tells the data path of what it handed off after each datagram, not
     * only after its read batch: 64 datagrams of batches hold more events than the hand-off ring.
     */
    @Test
    void anotherLoopHandsABatchsEventsOverAsSoonAsItsDatagramIsRead() {
        wire(new String[] {"name=a address=127.0.0.1:21001", "name=b address=127.0.0.1:21002"},
                new String[] {"id=1 variable=1 link=a buffer=64"});
        DataPathCounters other = new DataPathCounters();
        EmbeddedChannel otherLoop = new EmbeddedChannel(new IngressHandler(
                new FrameIntake(path, other, path.newHandoffRing())));
        ByteBuf[] frames = new ByteBuf[25];
        for (int i = 0; i < frames.length; i++) {
            frames[i] = frame(1, i, T0, 0);
        }
        otherLoop.writeOneInbound(new DatagramPacket(batchOf(frames), null, SENDER)); // read, no read-complete yet
        linkA.runPendingTasks(); // the data-path loop
        List<ByteBuf> onA = drainOutbound(linkA);
        assertEquals(25, onA.size(), "forwarded while the other loop's read batch goes on");
        onA.forEach(ByteBuf::release);
        otherLoop.finishAndReleaseAll();
    }

    @Test
    void aSlowLinkIsPacedAndItsOverflowCountedWhileTheFastLinkTakesEverything() {
        // Link b carries 2,600 B/s: ten 260-byte frames a second. Its default burst (50 µs of its
        // rate plus one maximum frame) lets one frame go at once.
        wire(new String[] {"name=a address=127.0.0.1:21001", "name=b address=127.0.0.1:21002 capacity=2600"},
                new String[] {"id=1 variable=1 link=a class=BE", "id=2 variable=1 link=b class=BE buffer=5"});
        for (int i = 0; i < 30; i++) {
            ingress.writeInbound(new DatagramPacket(frame(1, i, T0, 0, true), null, SENDER));
        }
        List<ByteBuf> onA = drainOutbound(linkA);
        List<ByteBuf> onB = drainOutbound(linkB);
        // Link a's burst, 50 µs of 1 Gbit/s and one maximum frame (7,722 B), in datagrams of five
        // frames, each 1,350 B with its batch, IP and UDP headers: 22 frames leave at once.
        assertEquals(22, onA.size(), "link a's burst");
        clock.advance(50_000L); // one pacing tick later the fast link has sent the rest
        linkA.advanceTimeBy(50, java.util.concurrent.TimeUnit.MICROSECONDS);
        linkA.runScheduledPendingTasks();
        onA.addAll(drainOutbound(linkA));
        assertEquals(30, onA.size());
        onB.addAll(drainOutbound(linkB));
        int burst = onB.size();
        assertEquals(1, burst, "the burst's worth goes at once");
        RouterCounters c = counters();
        assertEquals(30 - burst - 5, c.links().get("b").flow(2).queue().overflowDrops(), "the rest overflows a 5-event buffer");
        assertEquals(5, c.links().get("b").flow(2).queue().backlog());
        onA.forEach(ByteBuf::release);
        onB.forEach(ByteBuf::release);

        // The pacing timer sends the backlog at the link's rate: 2,600 B/s is one 288-byte frame
        // (260 and its IP and UDP headers) per 110.77 ms. Time is stepped to each timer the loop
        // holds, as it would pass, so each departure shows when the router woke for it.
        List<Long> at = new java.util.ArrayList<>();
        long elapsed = 0;
        while (at.size() < 5 && elapsed < 2_000_000_000L) {
            long next = linkA.runScheduledPendingTasks();
            for (ByteBuf b : drainOutbound(linkB)) {
                at.add(elapsed);
                b.release();
            }
            long step = next <= 0 ? 1_000_000L : Math.min(next, 10_000_000L);
            clock.advance(step);
            linkA.advanceTimeBy(step, java.util.concurrent.TimeUnit.NANOSECONDS);
            elapsed += step;
        }
        assertEquals(5, at.size(), "the whole backlog leaves: " + at);
        for (int k = 0; k < 5; k++) {
            long exact = (k + 1) * 288L * 1_000_000_000L / 2600;
            assertTrue(Math.abs(at.get(k) - exact) <= 1_000_000L, "departure " + k + " at " + at.get(k)
                    + " ns, the link's rate says " + exact + ": " + at);
        }
        assertEquals(0, counters().links().get("b").flow(2).queue().backlog());
        assertEquals(0, counters().links().get("b").flow(2).queue().deadlineMisses());
    }

    @Test
    void aLinkPacedAtSubMillisecondSpacingIsServedByThePacingTick() {
        // Link b carries 2.6 MB/s: one 260-byte frame, 288 bytes with its IP and UDP headers, per
        // 110.8 µs once its burst (50 µs of rate plus a maximum frame) is spent. Waits that short are
        // served by the link's periodic pacing tick (50 µs), not a timer per departure.
        wire(new String[] {"name=a address=127.0.0.1:21001", "name=b address=127.0.0.1:21002 capacity=2600000"},
                new String[] {"id=1 variable=1 link=a class=BE", "id=2 variable=1 link=b class=BE buffer=200"});
        for (int i = 0; i < 200; i++) {
            ingress.writeInbound(new DatagramPacket(frame(1, i, T0, 0, true), null, SENDER));
        }
        drainOutbound(linkA).forEach(ByteBuf::release);
        List<ByteBuf> burst = drainOutbound(linkB);
        int backlog = 200 - burst.size();
        burst.forEach(ByteBuf::release);
        assertTrue(backlog > 50, "the burst leaves a backlog: " + backlog);
        assertEquals(backlog, counters().links().get("b").flow(2).queue().backlog());

        int sent = 0;
        int steps = 0;
        while (sent < backlog && steps < 10 * backlog) {
            steps++;
            clock.advance(50_000L);
            linkA.advanceTimeBy(50, java.util.concurrent.TimeUnit.MICROSECONDS);
            linkA.runScheduledPendingTasks();
            List<ByteBuf> more = drainOutbound(linkB);
            assertTrue(more.size() <= 1, "step " + steps + ": " + more.size() + " frames, faster than the link");
            sent += more.size();
            more.forEach(ByteBuf::release);
        }
        assertEquals(backlog, sent, "the whole backlog leaves");
        // At the link's rate: 288 bytes a frame at 130 bytes per 50 µs step, within a step either way.
        double exact = backlog * 288.0 / 130;
        assertTrue(Math.abs(steps - exact) <= 2, backlog + " frames took " + steps + " steps of 50 µs, the link's rate "
                + exact);
        assertEquals(0, counters().links().get("b").flow(2).queue().overflowDrops());
        // Once nothing has waited for 10 ms, the tick stops: what stays scheduled on the data path's
        // loop is the estimator's next period, not a tick.
        clock.advance(5_000_000L);
        linkA.advanceTimeBy(5, java.util.concurrent.TimeUnit.MILLISECONDS);
        assertTrue(linkA.runScheduledPendingTasks() > 0, "the tick lingers a while after the backlog");
        clock.advance(6_000_000L);
        linkA.advanceTimeBy(6, java.util.concurrent.TimeUnit.MILLISECONDS);
        long nextTask = linkA.runScheduledPendingTasks();
        assertTrue(nextTask > LoopWakeups.TICK_HORIZON_NANOS, "the pacing tick stopped with the backlog gone: next task in "
                + nextTask + " ns");
    }

    @Test
    void aFrameReadLateInABatchIsNotGivenATimeBeforeItArrived() {
        // Link a delays by 30 ms. The loop reads one frame, loses the CPU for 7 ms, then reads the
        // next frame of the same batch: that frame must still take its full 30 ms.
        wire(new String[] {"name=a address=127.0.0.1:21001 delay=30ms", "name=b address=127.0.0.1:21002"},
                new String[] {"id=1 variable=1 link=a class=BE"});
        long start = clock.nanoTime();
        ingress.writeOneInbound(new DatagramPacket(frame(1, 0, T0, 0, true), null, SENDER));
        clock.advance(7_000_000L);
        ingress.writeOneInbound(new DatagramPacket(frame(1, 1, T0, 0, true), null, SENDER));
        ingress.flushInbound();
        List<Long> sentAt = new ArrayList<>();
        for (long t = 0; t <= 40_000_000L; t += 50_000L) {
            linkA.runScheduledPendingTasks();
            for (ByteBuf b : drainOutbound(linkA)) {
                sentAt.add(clock.nanoTime() - start);
                b.release();
            }
            clock.advance(50_000L);
            linkA.advanceTimeBy(50, java.util.concurrent.TimeUnit.MICROSECONDS);
        }
        assertEquals(2, sentAt.size());
        for (long at : sentAt) {
            assertTrue(at >= 37_000_000L, "sent " + at / 1e6 + " ms after the first read: before the second frame's 30 ms");
        }
    }

    @Test
    void theBrokerIsToldTheDropsByReasonAndEachLinksFigures() {
        wire(new String[] {"name=a address=127.0.0.1:21001", "name=b address=127.0.0.1:21002"},
                new String[] {"id=1 variable=1 link=a"});
        ByteBuf corrupt = frame(1, 1, T0, 0);
        corrupt.setByte(50, corrupt.getByte(50) ^ 1);
        ingress.writeInbound(new DatagramPacket(corrupt, null, SENDER));
        ingress.writeInbound(new DatagramPacket(frame(99, 1, T0, 0), null, SENDER));
        ingress.writeInbound(new DatagramPacket(frame(1, 2, T0, 0), null, SENDER));
        ingress.writeInbound(new DatagramPacket(frame(1, 3, T0, 0), null, SENDER));
        drainOutbound(linkA).forEach(ByteBuf::release);

        List<org.gridstat.core.control.ControlMessage.RouterReport> reports = RouterReports.of(counters(), 1234);
        assertEquals(1, reports.size());
        org.gridstat.core.control.ControlMessage.RouterReport r = reports.get(0);
        assertEquals(1234, r.timeMillis());
        assertEquals(java.util.Map.of("CHECKSUM_MISMATCH", 1L, "UNKNOWN_VARIABLE", 1L), r.drops());
        assertEquals(4, r.totals().get("received"));
        assertEquals(2, r.totals().get("forwarded"));
        assertEquals(1, r.totals().get("unknownVariable"), "the engine's counters too");
        assertEquals(java.util.Set.of("a", "b"), r.links().keySet());
        java.util.Map<String, Long> a = r.links().get("a");
        assertEquals(2, a.get("eventsSent"));
        assertEquals(2, a.get("datagramsSent"));
        assertEquals(2 * 56, a.get("bytesSent"));
        assertEquals(0, a.get("overflowDrops"));
        assertEquals(1, a.get("flows"));
        assertEquals(0, r.links().get("b").get("eventsSent"));
        org.gridstat.core.control.ControlFrame f = org.gridstat.core.control.ControlCodec.decode(ByteBuffer.wrap(
                org.gridstat.core.control.ControlCodec.encode(1, r), 4,
                org.gridstat.core.control.ControlCodec.encode(1, r).length - 4));
        assertEquals(r, f.message(), "what the router sends decodes at the broker");
    }
}
