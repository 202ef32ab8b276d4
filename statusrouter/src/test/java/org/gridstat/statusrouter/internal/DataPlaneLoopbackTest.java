package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
import org.gridstat.core.time.SystemClock;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.statusrouter.api.RouterCounters;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A router on loopback between a publisher and two subscribers, with garbage thrown at its port. */
class DataPlaneLoopbackTest {
    @ParameterizedTest
    @CsvSource({"NIO, 1, false", "AUTO, 1, false", "AUTO, 2, false", "AUTO, 2, true", "NIO, 1, true"})
    void forwardsEveryValidEventInOrderWhileGarbageIsCounted(RouterSettings.Transport transport, int loops, boolean busyPoll)
            throws Exception {
        List<Long> atA = new CopyOnWriteArrayList<>();
        List<Long> atB = new CopyOnWriteArrayList<>();
        InetSocketAddress loopback = new InetSocketAddress("127.0.0.1", 0);
        try (Subscriber a = Subscriber.open(loopback, e -> atA.add(e.sequence()));
             Subscriber b = Subscriber.open(loopback, e -> atB.add(e.sequence()))) {
            String[] routes = {
                "1 -> 127.0.0.1:" + a.localAddress().getPort() + ", 127.0.0.1:" + b.localAddress().getPort(),
            };
            RouterSettings s = RouterSettings.of("r1", "127.0.0.1:0", loops, transport.name(), 1 << 20, routes)
                    .busyPolling(busyPoll);
            try (DataPlane plane = DataPlane.start(s);
                 Publisher pub = Publisher.connect(plane.localAddress());
                 DatagramChannel attacker = DatagramChannel.open()) {
                attacker.connect(plane.localAddress());
                Publication p = pub.publication(VariableId.of(1), ServiceClass.HRT, null);
                Publication unknown = pub.publication(VariableId.of(2), ServiceClass.HRT, null);
                Random random = new Random(7);
                int garbage = 0;
                for (int i = 0; i < 1000; i++) {
                    p.publish(i, SystemClock.INSTANCE.nanos());
                    if (i % 10 == 0) {
                        byte[] junk = new byte[random.nextInt(1600)];
                        random.nextBytes(junk);
                        attacker.write(ByteBuffer.wrap(junk));
                        unknown.publish(i, SystemClock.INSTANCE.nanos());
                        garbage++;
                    }
                    if (i % 50 == 0) {
                        Thread.sleep(1); // keep socket buffers from overflowing on a loaded machine
                    }
                }
                long deadline = System.nanoTime() + 10_000_000_000L;
                while ((atA.size() < 1000 || atB.size() < 1000) && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                for (List<Long> got : List.of(atA, atB)) {
                    assertEquals(1000, got.size(), () -> "router: " + plane.counters());
                    for (int i = 0; i < 1000; i++) {
                        assertEquals(i, got.get(i), "order");
                    }
                }
                RouterCounters c = plane.counters();
                assertEquals(1000 + 2L * garbage, c.received());
                assertEquals(2000, c.forwarded());
                assertEquals(garbage, c.dropped(RejectReason.UNKNOWN_VARIABLE));
                assertEquals(garbage, c.droppedTotal() - garbage, "every junk datagram is counted as a drop: " + c);
                assertEquals(0, c.handoffDrops());
            }
        }
    }
}
