package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.Errors;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.time.ManualClock;
import org.gridstat.core.wire.BatchHeaderWriter;
import org.gridstat.core.wire.DatagramReader;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.core.wire.StatusEventDecoder;
import org.gridstat.core.wire.StatusEventEncoder;
import org.gridstat.core.wire.WireFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An out-link with segmented sends, its two sockets embedded channels: what each lane is handed
 * when a read batch of HRT and best-effort events is forwarded. Runs of equal datagrams go as one
 * segmented send, the last maybe shorter; lanes never share one; each lane's events keep their
 * order; the messages are reused once the transport gives them back; a send the kernel refuses
 * turns segmenting off.
 */
class LinkSegmentingTest {
    private static final long S = 1_000_000_000L;
    private static final long T0 = 1_790_000_000L * S;
    private static final int FRAME = 260;

    private final ManualClock clock = new ManualClock(T0);
    private DataPath path;
    private EmbeddedChannel data;
    private EmbeddedChannel priority;
    private FrameIntake intake;
    private ByteBuffer slots;
    private long sequence;
    private int slot;

    @BeforeEach
    void wire() {
        Assumptions.assumeTrue(Epoll.isAvailable(), "fixed receive slots come with epoll's recvmmsg");
        RouterSettings s = RouterSettings.of("r1", "127.0.0.1:0", 1, "nio", 1 << 20,
                new String[] {"name=a address=127.0.0.1:21001 priority=127.0.0.1:21002 capacity=1250000000"},
                new String[] {"id=1 variable=1 link=a class=BE buffer=1000", "id=2 variable=2 link=a class=HRT buffer=1000"},
                new String[0], S, 0.5, 64);
        data = new EmbeddedChannel();
        priority = new EmbeddedChannel();
        data.freezeTime();
        priority.freezeTime();
        path = new DataPath(s, data.eventLoop(), clock, clock, new DataPathCounters());
        data.pipeline().addLast(path.links[0]);
        priority.pipeline().addLast(path.links[0]);
        path.links[0].attach(data, priority, true);
        path.start();
        intake = new FrameIntake(path, new DataPathCounters());
        assertNotNull(intake.fixedSlots());
        slots = intake.slots();
    }

    @AfterEach
    void release() {
        if (path != null) {
            path.discard();
        }
        for (EmbeddedChannel ch : new EmbeddedChannel[] {data, priority}) {
            Object m;
            while (ch != null && (m = ch.readOutbound()) != null) {
                io.netty.util.ReferenceCountUtil.release(m);
            }
        }
    }

    /** Receives one datagram per event group in the next slot: a batch of {@code events} of {@code variable}. */
    private void receive(long variable, ServiceClass serviceClass, int events) {
        int at = slot * FrameIntake.DATAGRAM_BUFFER;
        int[] lengths = new int[events];
        java.util.Arrays.fill(lengths, FRAME);
        ByteBuffer view = slots.duplicate();
        int offset = at + new BatchHeaderWriter().write(view, at, lengths, events);
        for (int i = 0; i < events; i++) {
            offset += new StatusEventEncoder().wrap(view, offset).variableId(variable).sequence(sequence++)
                    .sourceTimeNanos(T0).deadlineNanos(T0 + 10 * S).serviceClass(serviceClass)
                    .rawPayloadLength(FRAME - WireFormat.HEADER_LENGTH).seal();
        }
        intake.acceptSlot(slot++, offset - at);
    }

    /** One message a lane was handed: its datagrams' lengths and their events' variables and sequence numbers. */
    private record Message(boolean segmented, int segmentSize, List<Integer> lengths, List<long[]> events) {
    }

    private static List<Message> messages(EmbeddedChannel ch) {
        List<Message> out = new ArrayList<>();
        DatagramReader reader = new DatagramReader();
        StatusEventDecoder decoder = new StatusEventDecoder();
        Object m;
        while ((m = ch.readOutbound()) != null) {
            boolean segmented = m instanceof SegmentedSend;
            ByteBuf all = segmented ? ((SegmentedSend) m).content() : (ByteBuf) m;
            int segmentSize = segmented ? ((SegmentedSend) m).segmentSize() : all.readableBytes();
            ByteBuffer nio = all.nioBuffer();
            List<Integer> lengths = new ArrayList<>();
            List<long[]> events = new ArrayList<>();
            for (int at = 0; at < nio.remaining(); at += segmentSize) {
                int length = Math.min(segmentSize, nio.remaining() - at);
                lengths.add(length);
                assertEquals(RejectReason.NONE, reader.open(nio, at, length), "each segment a datagram of its own");
                while (reader.next()) {
                    assertEquals(RejectReason.NONE, decoder.wrap(nio, reader.eventOffset(), reader.eventLength()));
                    events.add(new long[] {decoder.variableId(), decoder.sequence()});
                }
            }
            io.netty.util.ReferenceCountUtil.release(m);
            out.add(new Message(segmented, segmentSize, lengths, events));
        }
        return out;
    }

    @Test
    void runsOfEqualDatagramsGoSegmentedLaneByLaneInOrder() {
        for (int i = 0; i < 6; i++) { // interleaved on the way in, 30 events of each class
            receive(1, ServiceClass.BE, 5);
            receive(2, ServiceClass.HRT, 5);
        }
        intake.readComplete();

        for (EmbeddedChannel lane : new EmbeddedChannel[] {data, priority}) {
            long variable = lane == data ? 1 : 2;
            List<Message> got = messages(lane);
            List<Long> sequences = new ArrayList<>();
            boolean anySegmented = false;
            for (Message m : got) {
                anySegmented |= m.segmented();
                if (m.segmented()) {
                    assertTrue(m.lengths().size() >= 2, "a segmented send carries several datagrams");
                    assertTrue(m.lengths().size() <= SegmentRun.MAX_SEGMENTS);
                    for (int i = 0; i < m.lengths().size(); i++) {
                        int length = m.lengths().get(i);
                        if (i < m.lengths().size() - 1) {
                            assertEquals(m.segmentSize(), length, "only the last segment may be shorter");
                        } else {
                            assertTrue(length <= m.segmentSize());
                        }
                    }
                }
                for (long[] e : m.events()) {
                    assertEquals(variable, e[0], "each lane carries its own class only");
                    sequences.add(e[1]);
                }
            }
            assertTrue(anySegmented, "runs went segmented: " + got.size() + " messages");
            assertEquals(30, sequences.size());
            for (int i = 1; i < sequences.size(); i++) {
                assertTrue(sequences.get(i) > sequences.get(i - 1), "in order: " + sequences);
            }
        }
        assertTrue(path.links[0].segmentedSends() >= 2);
    }

    @Test
    void theMessagesComeBackOnceTheTransportReleasesThem() {
        for (int i = 0; i < 6; i++) {
            receive(1, ServiceClass.BE, 5);
        }
        intake.readComplete();
        long first = path.links[0].segmentedSends();
        assertTrue(first >= 1);
        messages(data); // released, as the transport does once written
        int idle = path.links[0].sink(0).idleMessages();
        assertEquals(first, idle, "every message back in the pool");
        for (int i = 0; i < 6; i++) {
            receive(1, ServiceClass.BE, 5);
        }
        intake.readComplete();
        long second = path.links[0].segmentedSends() - first;
        assertTrue(second >= 1);
        assertEquals(idle - Math.min(idle, second), path.links[0].sink(0).idleMessages(), "taken from the pool, not made");
    }

    @Test
    void aSegmentedSendTheKernelRefusesTurnsSegmentingOff() {
        LinkTransmitter link = path.links[0];
        assertTrue(link.segmenting());
        data.pipeline().fireExceptionCaught(new Errors.NativeIoException("sendmmsg", -111)); // ECONNREFUSED: a neighbour's port
        assertTrue(link.segmenting(), "not a refusal of segmenting");
        data.pipeline().fireExceptionCaught(new Errors.NativeIoException("sendmmsg", -22)); // EINVAL
        assertFalse(link.segmenting());
        for (int i = 0; i < 6; i++) {
            receive(1, ServiceClass.BE, 5);
        }
        intake.readComplete();
        List<Message> got = messages(data);
        assertTrue(got.size() >= 6);
        assertTrue(got.stream().noneMatch(Message::segmented), "each datagram on its own");
        assertEquals(30, got.stream().mapToInt(m -> m.events().size()).sum());
    }
}
