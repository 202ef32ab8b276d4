package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
import org.gridstat.core.time.SystemClock;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.junit.jupiter.api.Test;

/** A neighbour that is not listening yet costs counted errors, never the link. */
class AbsentNeighbourTest {
    @Test
    void theLinkSurvivesPortUnreachableAndDeliversOnceTheNeighbourListens() throws Exception {
        int port;
        try (DatagramSocket probe = new DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort(); // free now, and nobody listens there until later
        }
        try (DataPlane router = DataPlane.start(RouterSettings.of("absent", "127.0.0.1:0", 1, "auto", 1 << 20,
                new String[] {"name=later address=127.0.0.1:" + port}, new String[] {"id=1 variable=1 link=later"},
                new String[0], 1_000_000_000L, 0.5, 4));
             Publisher publisher = Publisher.connect(router.localAddress())) {
            Publication p = publisher.publication(VariableId.of(1), ServiceClass.BE, null);
            for (int i = 0; i < 20; i++) {
                p.publish(i, SystemClock.INSTANCE.nanos());
                Thread.sleep(2); // each send may draw an ICMP port-unreachable back
            }
            long errorsBy = System.nanoTime() + 5_000_000_000L;
            while (router.counters().sendErrors() == 0 && System.nanoTime() < errorsBy) {
                Thread.sleep(5);
            }
            assertTrue(router.counters().sendErrors() > 0, "the port-unreachable errors are counted, not thrown");
            List<Long> got = new CopyOnWriteArrayList<>();
            try (Subscriber late = Subscriber.open(new InetSocketAddress("127.0.0.1", port), e -> got.add(e.sequence()))) {
                for (int i = 20; i < 40; i++) {
                    p.publish(i, SystemClock.INSTANCE.nanos());
                }
                long deadline = System.nanoTime() + 5_000_000_000L;
                while (!got.contains(39L) && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                List<Long> fresh = got.stream().filter(seq -> seq >= 20).toList();
                assertEquals(java.util.stream.LongStream.range(20, 40).boxed().toList(), fresh,
                        "everything sent after the neighbour came up arrives, in order");
                // Frames from before may still have been waiting in socket buffers; they arrive late, not twice:
                // the router handed each of the 40 to the link's socket exactly once.
                assertEquals(got.size(), new java.util.HashSet<>(got).size());
                assertEquals(40, router.counters().forwarded());
                assertEquals(40, router.counters().links().get("later").flow(1).queue().departures());
            }
        }
    }
}
