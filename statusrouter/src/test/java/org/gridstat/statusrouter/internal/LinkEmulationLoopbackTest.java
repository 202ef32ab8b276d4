package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.time.SystemClock;
import org.gridstat.statusrouter.api.RouterCounters;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A router's emulated out-links on loopback: the delay holds packets back, the loss drops a share of them. */
class LinkEmulationLoopbackTest {
    private static final long MS = 1_000_000L;

    /** Also with busy-polling event loops, whose timers (the delay line's) must still fire on time. */
    @ParameterizedTest(name = "busy poll {0}")
    @ValueSource(booleans = {false, true})
    void delayedLinkDeliversNoEarlierThanItsDelayAndLossyLinkLosesItsShare(boolean busyPoll) throws Exception {
        List<Long> delays = new CopyOnWriteArrayList<>();
        List<Long> order = new CopyOnWriteArrayList<>();
        List<Long> lossy = new CopyOnWriteArrayList<>();
        InetSocketAddress any = new InetSocketAddress("127.0.0.1", 0);
        // Delays on the monotonic clock: the epoch clock may step between a send and its receipt.
        long[] sentAt = new long[1000];
        try (Subscriber slow = Subscriber.open(any, e -> {
                 delays.add(System.nanoTime() - sentAt[(int) e.sequence()]);
                 order.add(e.sequence());
             });
             Subscriber lossySub = Subscriber.open(any, e -> lossy.add(e.sequence()));
             DataPlane router = DataPlane.start(RouterSettings.of("emu", "127.0.0.1:0", 1, "auto", 1 << 20,
                     new String[] {
                         "name=slow address=127.0.0.1:" + slow.localAddress().getPort() + " delay=30ms",
                         "name=lossy address=127.0.0.1:" + lossySub.localAddress().getPort() + " loss=0.3 seed=11"},
                     new String[] {"id=1 variable=1 link=slow", "id=2 variable=1 link=lossy"}, new String[0],
                     1_000_000_000L, 0.5, 16).busyPolling(busyPoll));
             Publisher publisher = Publisher.connect(router.localAddress())) {
            Publication p = publisher.publication(VariableId.of(1), ServiceClass.LRT, null);
            for (int i = 0; i < 1000; i++) {
                sentAt[i] = System.nanoTime();
                p.publish(i, SystemClock.INSTANCE.nanos());
                // Spaced, so each sample mostly leaves alone: the emulated link loses datagrams,
                // and samples packed together would be lost together.
                java.util.concurrent.locks.LockSupport.parkNanos(200_000);
            }
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (delays.size() < 1000 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            Thread.sleep(100);
            assertEquals(1000, delays.size(), "the delayed link loses nothing");
            for (int i = 0; i < 1000; i++) {
                assertEquals(i, order.get(i), "in order, each once");
            }
            for (long d : delays) {
                assertTrue(d >= 30 * MS, "delivered after " + d / 1e6 + " ms, before the 30 ms delay");
            }
            assertEquals(700, lossy.size(), 60, "about 30 % lost on the lossy link");
            RouterCounters c = router.counters();
            assertEquals(1000 - lossy.size(), c.emulationLost(), "every emulated loss is counted");
        }
    }
}
