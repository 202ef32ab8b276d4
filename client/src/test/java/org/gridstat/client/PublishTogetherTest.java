package org.gridstat.client;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.time.ManualClock;
import org.gridstat.core.wire.DatagramReader;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.core.wire.StatusEventDecoder;
import org.gridstat.core.wire.WireFormat;
import org.junit.jupiter.api.Test;

/** Samples published together leave packed in as few datagrams as fit, and a subscriber takes batches apart. */
class PublishTogetherTest {
    private static final InetSocketAddress ANY_LOOPBACK = new InetSocketAddress("127.0.0.1", 0);

    /** The datagrams that reach {@code ch}, as lists of (variable, sequence) per datagram; waits up to 5 s for {@code n} events. */
    private static List<List<String>> datagrams(DatagramChannel ch, int n) throws Exception {
        List<List<String>> out = new ArrayList<>();
        ByteBuffer buf = ByteBuffer.allocate(65_536);
        DatagramReader reader = new DatagramReader();
        StatusEventDecoder d = new StatusEventDecoder();
        ch.configureBlocking(false);
        int events = 0;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (events < n && System.nanoTime() < end) {
            buf.clear();
            if (ch.receive(buf) == null) {
                Thread.sleep(1);
                continue;
            }
            buf.flip();
            assertEquals(RejectReason.NONE, reader.open(buf, 0, buf.limit()));
            List<String> one = new ArrayList<>();
            while (reader.next()) {
                assertEquals(RejectReason.NONE, d.wrap(buf, reader.eventOffset(), reader.eventLength()));
                one.add(d.variableId() + "/" + d.sequence());
                events++;
            }
            out.add(one);
        }
        return out;
    }

    @Test
    void samplesPublishedTogetherLeaveInAsFewDatagramsAsFitAndNothingElseWaits() throws Exception {
        try (DatagramChannel router = DatagramChannel.open().bind(ANY_LOOPBACK);
             Publisher pub = Publisher.connect((InetSocketAddress) router.getLocalAddress(), new ManualClock(4_000_000_000L))) {
            List<Publication> channels = new ArrayList<>();
            for (int v = 1; v <= 30; v++) {
                channels.add(pub.publication(VariableId.of(v), ServiceClass.HRT, null));
            }
            pub.publishTogether(() -> {
                for (Publication p : channels) {
                    assertTrue(p.publish(50.0));
                }
            });
            // 56-byte double events: 12 + 2n + 56n <= 1472 holds up to n = 25.
            List<List<String>> got = datagrams(router, 30);
            assertEquals(List.of(25, 5), got.stream().map(List::size).toList());
            assertEquals("1/0", got.get(0).get(0));
            assertEquals("30/0", got.get(1).get(4), "in the order published");
            assertEquals(30, pub.sent());

            channels.get(0).publish(51.0); // outside publishTogether: a lone frame, at once
            assertEquals(List.of(List.of("1/1")), datagrams(router, 1));

            pub.maxDatagramBytes(WireFormat.MAX_DATAGRAM_LENGTH);
            pub.publishTogether(() -> channels.forEach(p -> p.publish(52.0)));
            assertEquals(List.of(30), datagrams(router, 30).stream().map(List::size).toList(), "a loopback-sized datagram");
            assertThrows(IllegalArgumentException.class, () -> pub.maxDatagramBytes(WireFormat.MAX_DATAGRAM_LENGTH + 1));

            // Lowered inside a block: what was held for the larger size leaves first, the rest to the new size.
            pub.publishTogether(() -> {
                channels.forEach(p -> p.publish(53.0));
                pub.maxDatagramBytes(WireFormat.MAX_FRAME_LENGTH);
                channels.forEach(p -> p.publish(54.0));
            });
            assertEquals(List.of(30, 25, 5), datagrams(router, 60).stream().map(List::size).toList());
        }
    }

    @Test
    void aSubscriberDeliversEachGoodEventOfABatchAndCountsTheDamagedOne() throws Exception {
        List<String> got = new CopyOnWriteArrayList<>();
        try (Subscriber sub = Subscriber.open(ANY_LOOPBACK, e -> got.add(e.variableId() + "/" + e.sequence()));
             DatagramChannel relay = DatagramChannel.open().bind(ANY_LOOPBACK);
             Publisher pub = Publisher.connect((InetSocketAddress) relay.getLocalAddress())) {
            Publication a = pub.publication(VariableId.of(1), ServiceClass.BE, null);
            Publication b = pub.publication(VariableId.of(2), ServiceClass.BE, null);
            pub.publishTogether(() -> {
                a.publish(1.0);
                b.publish(2.0);
                a.publish(3.0);
            });
            ByteBuffer batch = ByteBuffer.allocate(65_536);
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            relay.configureBlocking(false);
            while (relay.receive(batch) == null && System.nanoTime() < end) {
                Thread.sleep(1);
            }
            batch.flip();
            // The second event's payload starts at 12 + 6 + 56 + 48: flip one of its bits on the way.
            int at = 12 + 3 * 2 + 56 + 48;
            batch.put(at, (byte) (batch.get(at) ^ 0x10));
            relay.send(batch, sub.localAddress());
            end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (got.size() < 2 && System.nanoTime() < end) {
                Thread.sleep(1);
            }
            assertEquals(List.of("1/0", "1/1"), got);
            assertEquals(1, sub.rejected(RejectReason.CHECKSUM_MISMATCH));
        }
    }
}
