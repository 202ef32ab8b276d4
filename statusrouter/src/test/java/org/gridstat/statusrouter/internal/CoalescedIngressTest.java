package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.epoll.Epoll;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.time.ManualClock;
import org.gridstat.core.wire.BatchHeaderWriter;
import org.gridstat.core.wire.DatagramReader;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.core.wire.StatusEventEncoder;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.statusrouter.api.RouterCounters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A buffer the kernel coalesced (UDP_GRO), as the data port's intake takes it from a receive slot:
 * split into its datagrams, each counted, checked and forwarded as if it had come alone; a segment
 * size that cannot be the kernel's leaves the buffer whole, dropped and counted once.
 */
class CoalescedIngressTest {
    private static final long S = 1_000_000_000L;
    private static final long T0 = 1_790_000_000L * S;
    private static final int FRAME = 260;
    /** A batch of five 260-byte events: 12 + 2 x 5 + 5 x 260 bytes. */
    private static final int FULL = 1322;

    private final ManualClock clock = new ManualClock(T0);
    private DataPathCounters ingressCounters;
    private DataPath path;
    private EmbeddedChannel link;
    private FrameIntake intake;
    private ByteBuffer slots;
    private long sequence;

    @BeforeEach
    void wire() {
        Assumptions.assumeTrue(Epoll.isAvailable(), "fixed receive slots come with epoll's recvmmsg");
        RouterSettings s = RouterSettings.of("r1", "127.0.0.1:0", 1, "nio", 1 << 20,
                new String[] {"name=a address=127.0.0.1:21001 capacity=1250000000"},
                new String[] {"id=1 variable=1 link=a buffer=1000"}, new String[0], S, 0.5, 64);
        link = new EmbeddedChannel();
        link.freezeTime();
        path = new DataPath(s, link.eventLoop(), clock, clock, new DataPathCounters());
        link.pipeline().addLast(path.links[0]);
        path.links[0].attach(link);
        path.start();
        ingressCounters = new DataPathCounters();
        intake = new FrameIntake(path, ingressCounters);
        assertNotNull(intake.fixedSlots());
        slots = intake.slots();
    }

    @AfterEach
    void release() {
        if (path != null) {
            path.discard();
        }
        ByteBuf b;
        while (link != null && (b = link.readOutbound()) != null) {
            b.release();
        }
    }

    /** Writes a batch of {@code events} 260-byte events of {@code variable} at {@code at} in the slots; returns its length. */
    private int batch(int at, int events, long variable) {
        int[] lengths = new int[events];
        java.util.Arrays.fill(lengths, FRAME);
        ByteBuffer view = slots.duplicate();
        int header = new BatchHeaderWriter().write(view, at, lengths, events);
        int offset = at + header;
        for (int i = 0; i < events; i++) {
            offset += new StatusEventEncoder().wrap(view, offset).variableId(variable).sequence(sequence++)
                    .sourceTimeNanos(T0).deadlineNanos(T0 + 10 * S).serviceClass(ServiceClass.BE)
                    .rawPayloadLength(FRAME - WireFormat.HEADER_LENGTH).seal();
        }
        return offset - at;
    }

    /** The sequence numbers the link sent, in order. */
    private List<Long> sent() {
        List<Long> out = new ArrayList<>();
        DatagramReader reader = new DatagramReader();
        ByteBuf b;
        while ((b = link.readOutbound()) != null) {
            ByteBuffer nio = b.nioBuffer();
            assertEquals(RejectReason.NONE, reader.open(nio, 0, nio.remaining()));
            while (reader.next()) {
                out.add(nio.getLong(reader.eventOffset() + WireFormat.SEQUENCE_OFFSET));
            }
            b.release();
        }
        return out;
    }

    private RouterCounters counters() {
        return DataPathCounters.snapshot(List.of(ingressCounters), path);
    }

    @Test
    void eachDatagramOfACoalescedBufferIsTakenAsIfItCameAloneWithAShorterLast() {
        int length = 0;
        for (int i = 0; i < 3; i++) {
            assertEquals(FULL, batch(length, 5, 1));
            length += FULL;
        }
        length += batch(length, 2, 1); // the last segment, shorter: 536 bytes
        int lone = FrameIntake.DATAGRAM_BUFFER;
        int loneLength = batch(lone, 4, 1); // a datagram not coalesced, in the next slot
        intake.acceptSlot(0, length, FULL);
        intake.acceptSlot(1, loneLength, 0);
        intake.readComplete();

        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < 21; i++) {
            expected.add(i);
        }
        assertEquals(expected, sent(), "every event, in order");
        RouterCounters c = counters();
        assertEquals(21, c.received());
        assertEquals(5, c.batchesReceived(), "each datagram of the buffer counted as a datagram");
        assertEquals(21, c.forwarded());
        assertEquals(0, c.droppedTotal());
        assertEquals(1, ingressCounters.coalescedBuffers());
    }

    @Test
    void aBadEventInACoalescedDatagramCostsOnlyItself() {
        int length = batch(0, 5, 1);
        int second = length;
        length += batch(second, 5, 99); // an unknown variable: five drops, the other datagrams go
        length += batch(length, 5, 1);
        slots.put(second + 12 + 10 + 60, (byte) (slots.get(second + 12 + 10 + 60) ^ 1)); // damage its first event
        intake.acceptSlot(0, length, FULL);
        intake.readComplete();
        List<Long> got = sent();
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 10L, 11L, 12L, 13L, 14L), got);
        RouterCounters c = counters();
        assertEquals(15, c.received());
        assertEquals(3, c.batchesReceived());
        assertEquals(1, c.dropped(RejectReason.CHECKSUM_MISMATCH));
        assertEquals(4, c.dropped(RejectReason.UNKNOWN_VARIABLE));
    }

    @Test
    void aSegmentSizeThatCannotBeTheKernelsLeavesTheBufferWholeAndItIsDroppedOnce() {
        int length = batch(0, 5, 1);
        length += batch(length, 5, 1);
        for (int segmentSize : new int[] {0, length, length + 100, -1, 1}) {
            intake.acceptSlot(0, length, segmentSize);
        }
        intake.readComplete();
        assertEquals(List.of(), sent());
        RouterCounters c = counters();
        assertEquals(5, c.received(), "each buffer one datagram");
        assertEquals(5, c.dropped(RejectReason.BATCH_DAMAGED), "two batches back to back are not one batch");
        assertEquals(0, ingressCounters.coalescedBuffers());
    }

    @Test
    void aWrongSegmentSizeCutsTheBufferIntoPiecesEachDroppedAndCounted() {
        int length = batch(0, 5, 1);
        length += batch(length, 5, 1);
        intake.acceptSlot(0, length, 700); // 700 + 700 + 700 + 544: none a datagram
        intake.acceptSlot(0, length, 40); // 67 pieces shorter than a header
        intake.readComplete();
        assertEquals(List.of(), sent());
        RouterCounters c = counters();
        assertEquals(4 + 67, c.received());
        assertEquals(4 + 67, c.droppedTotal(), "every piece counted: " + c);
        assertEquals(0, c.forwarded());
        assertEquals(2, ingressCounters.coalescedBuffers());
    }
}
