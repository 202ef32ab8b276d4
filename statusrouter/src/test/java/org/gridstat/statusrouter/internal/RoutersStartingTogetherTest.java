package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.egress.DataPathWarmUp;
import org.junit.jupiter.api.Test;

/**
 * The port claim must hold for two routers started at about the same time, not only for
 * one started after the other is up: a check before the data path's warm-up (which takes a while)
 * and a bind (with SO_REUSEPORT under epoll) after it would let two routers started together both
 * pass and then share the port, so the router also counts the sockets on its port once bound.
 */
class RoutersStartingTogetherTest {
    private static int freePort() throws Exception {
        try (DatagramSocket probe = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    @Test
    void twoRoutersStartedTogetherOnOnePortDoNotBothRun() throws Exception {
        int port = freePort();
        CyclicBarrier together = new CyclicBarrier(2);
        ExecutorService two = Executors.newFixedThreadPool(2);
        Callable<DataPlane> start = () -> {
            together.await();
            return DataPlane.start(RouterSettings.of("same-id", "127.0.0.1:" + port, 2, "auto", 1 << 20, new String[0])
                    .warmingUp(DataPathWarmUp.DEFAULT_FRAMES));
        };
        List<Future<DataPlane>> started = List.of(two.submit(start), two.submit(start));
        List<DataPlane> running = new ArrayList<>();
        List<Throwable> refused = new ArrayList<>();
        for (Future<DataPlane> f : started) {
            try {
                running.add(f.get(120, TimeUnit.SECONDS));
            } catch (ExecutionException e) {
                refused.add(e.getCause());
            }
        }
        two.shutdown();
        running.forEach(DataPlane::close);
        // started at the same moment, both may refuse (each sees the other's sockets): never both run
        assertTrue(running.size() <= 1, "routers running on port " + port + ": " + running.size() + "; refused: " + refused);
        assertFalse(refused.isEmpty());
    }
}
