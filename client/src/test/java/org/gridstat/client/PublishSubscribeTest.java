package org.gridstat.client;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.time.ManualClock;
import org.gridstat.core.wire.PayloadType;
import org.gridstat.core.wire.RejectReason;
import org.junit.jupiter.api.Test;

/** Publisher straight to subscriber over loopback, no router in between. */
class PublishSubscribeTest {
    private static final InetSocketAddress ANY_LOOPBACK = new InetSocketAddress("127.0.0.1", 0);

    record Got(long variable, long seq, long source, long deadline, ServiceClass cls, PayloadType type, String value,
               long receivedAt) {
    }

    private static String valueOf(ReceivedEvent e) {
        switch (e.payloadType()) {
            case DOUBLE:
                return Double.toString(e.doubleValue());
            case FLOAT_VECTOR:
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < e.floatCount(); i++) {
                    sb.append(e.floatAt(i)).append(' ');
                }
                return sb.toString().trim();
            default:
                byte[] b = new byte[e.payloadLength()];
                e.copyPayload(b, 0);
                return new String(b);
        }
    }

    private static void awaitCount(List<?> list, int n) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (list.size() < n && System.nanoTime() < end) {
            Thread.sleep(5);
        }
    }

    @Test
    void deliversEachTypedValueWithItsHeaderInOrder() throws Exception {
        List<Got> got = new CopyOnWriteArrayList<>();
        ManualClock subscriberClock = new ManualClock(5_000_000_000L);
        try (Subscriber sub = Subscriber.open(ANY_LOOPBACK, e -> got.add(new Got(e.variableId(), e.sequence(),
                e.sourceTimeNanos(), e.deadlineNanos(), e.serviceClass(), e.payloadType(), valueOf(e), e.receiveTimeNanos())),
                subscriberClock);
             Publisher pub = Publisher.connect(sub.localAddress(), new ManualClock(4_000_000_000L))) {
            Publication freq = pub.publication(VariableId.of(11), ServiceClass.HRT, Duration.ofMillis(50));
            Publication phasors = pub.publication(VariableId.of(12), ServiceClass.LRT, null);
            Publication raw = pub.publication(VariableId.of(13), ServiceClass.BE, Duration.ofSeconds(1));

            assertTrue(freq.publish(60.01, 1_000));
            assertTrue(phasors.publish(new float[] {1.5f, -2f, 99f}, 2, 2_000));
            assertTrue(raw.publish("hello grid".getBytes(), 6, 4, 3_000));
            assertTrue(freq.publish(59.99));
            awaitCount(got, 4);

            assertEquals(List.of(
                    new Got(11, 0, 1_000, 1_000 + 50_000_000L, ServiceClass.HRT, PayloadType.DOUBLE, "60.01", 5_000_000_000L),
                    new Got(12, 0, 2_000, 0, ServiceClass.LRT, PayloadType.FLOAT_VECTOR, "1.5 -2.0", 5_000_000_000L),
                    new Got(13, 0, 3_000, 3_000 + 1_000_000_000L, ServiceClass.BE, PayloadType.RAW, "grid", 5_000_000_000L),
                    new Got(11, 1, 4_000_000_000L, 4_050_000_000L, ServiceClass.HRT, PayloadType.DOUBLE, "59.99",
                            5_000_000_000L)), got);
            assertEquals(4, pub.sent());
            assertEquals(0, pub.sendErrors());
            assertEquals(4, sub.delivered());
            assertEquals(2, freq.nextSequence());
        }
    }

    @Test
    void garbageIsCountedByReasonAndValidTrafficGoesOn() throws Exception {
        List<Long> seqs = new CopyOnWriteArrayList<>();
        try (Subscriber sub = Subscriber.open(ANY_LOOPBACK, e -> seqs.add(e.sequence()));
             Publisher pub = Publisher.connect(sub.localAddress());
             DatagramChannel raw = DatagramChannel.open()) {
            Publication p = pub.publication(VariableId.of(1), ServiceClass.BE, null);
            raw.connect(sub.localAddress());
            p.publish(1.0, 1);
            raw.write(ByteBuffer.wrap(new byte[10]));
            raw.write(ByteBuffer.wrap(new byte[2000]));
            raw.write(ByteBuffer.wrap(new byte[100]));
            p.publish(2.0, 2);
            awaitCount(seqs, 2);
            Thread.sleep(50);
            assertEquals(List.of(0L, 1L), seqs);
            assertEquals(1, sub.rejected(RejectReason.TRUNCATED));
            assertEquals(1, sub.rejected(RejectReason.OVERSIZE));
            assertEquals(1, sub.rejected(RejectReason.BAD_MAGIC));
        }
    }

    @Test
    void aThrowingListenerIsCountedAndDeliveryContinues() throws Exception {
        List<Long> seqs = new CopyOnWriteArrayList<>();
        try (Subscriber sub = Subscriber.open(ANY_LOOPBACK, e -> {
            seqs.add(e.sequence());
            if (e.sequence() == 1) {
                throw new IllegalStateException("application bug");
            }
        }); Publisher pub = Publisher.connect(sub.localAddress())) {
            Publication p = pub.publication(VariableId.of(1), ServiceClass.BE, null);
            for (int i = 0; i < 3; i++) {
                p.publish(i, i);
            }
            awaitCount(seqs, 3);
            assertEquals(List.of(0L, 1L, 2L), seqs);
            Thread.sleep(20);
            assertEquals(1, sub.listenerErrors());
            assertEquals(2, sub.delivered());
        }
    }

    @Test
    void copiesFromSeveralPathsAreDeliveredOnceAndCounted() throws Exception {
        List<Long> seqs = new CopyOnWriteArrayList<>();
        try (Subscriber sub = Subscriber.open(ANY_LOOPBACK, e -> seqs.add(e.sequence()));
             DatagramChannel pathA = DatagramChannel.open();
             DatagramChannel pathB = DatagramChannel.open()) {
            pathA.connect(sub.localAddress());
            pathB.connect(sub.localAddress());
            org.gridstat.core.wire.StatusEventEncoder enc = new org.gridstat.core.wire.StatusEventEncoder();
            ByteBuffer frame = ByteBuffer.allocate(128);
            for (long seq : new long[] {0, 1, 2, 4}) {
                int len = enc.wrap(frame, 0).variableId(3).sequence(seq).sourceTimeNanos(1_000 + seq).doublePayload(seq).seal();
                pathA.write(frame.duplicate().limit(len).position(0));
                pathB.write(frame.duplicate().limit(len).position(0)); // the same event over a second path
            }
            awaitCount(seqs, 4);
            Thread.sleep(50);
            assertEquals(List.of(0L, 1L, 2L, 4L), seqs, "each sequence once");
            SubscriberStatistics st = sub.statistics();
            assertEquals(4, st.delivered());
            assertEquals(4, st.duplicatesDiscarded());
            assertEquals(1, st.gaps(), "sequence 3 never came");
            assertEquals(0, st.tooLate());
        }
    }

    @Test
    void closingFreesThePort() throws Exception {
        InetSocketAddress bound;
        try (Subscriber sub = Subscriber.open(ANY_LOOPBACK, e -> { })) {
            bound = sub.localAddress();
        }
        try (DatagramChannel again = DatagramChannel.open()) {
            again.bind(bound);
            assertEquals(bound, again.getLocalAddress());
        }
    }

    @Test
    void misuseIsRejectedWithAMessage() {
        try (Publisher pub = Publisher.connect(new InetSocketAddress("127.0.0.1", 9))) {
            assertTrue(assertThrows(IllegalArgumentException.class,
                    () -> pub.publication(VariableId.of(1), ServiceClass.CONTROL, null)).getMessage().contains("reserved"));
            assertTrue(assertThrows(IllegalArgumentException.class,
                    () -> pub.publication(VariableId.of(1), ServiceClass.HRT, Duration.ZERO)).getMessage().contains("positive"));
            Publication p = pub.publication(VariableId.of(1), ServiceClass.BE, null);
            assertThrows(IllegalArgumentException.class, () -> p.publish(new byte[2000], 0, 2000, 1));
            assertEquals(0, p.nextSequence(), "a rejected sample consumes no sequence number");
        }
        assertThrows(IllegalArgumentException.class,
                () -> Publisher.connect(InetSocketAddress.createUnresolved("no.such.host", 1)));
    }
}
