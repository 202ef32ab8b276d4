package org.gridstat.tests;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.time.SystemClock;
import org.gridstat.node.Distribution;
import org.gridstat.node.EquinoxNode;
import org.gridstat.node.NodeConfig;
import org.junit.jupiter.api.Test;

/**
 * A router node as it runs in production: an Equinox framework started from the distribution's
 * bundles, configured through Config Admin, with the client API on either side over loopback UDP.
 */
class EquinoxRouterNodeTest {
    private static final String STATUS_ROUTER = "org.gridstat.statusrouter.api.StatusRouter";
    private static final int EVENTS = 1000;
    private static final long PERIOD = 16_666_667L;

    private record Sample(long seq, long sourceTime, long deadline, double value, int hops) {
    }

    @Test
    void forwardsAThousandEventsIntactAndInOrderThenLeavesNothingListening() throws Exception {
        long[] t0 = new long[1];
        int routerPort = LoopbackPorts.free();
        List<Sample> got = new ArrayList<>();
        Object lock = new Object();
        try (Subscriber subscriber = Subscriber.open(new InetSocketAddress("127.0.0.1", 0), e -> {
            synchronized (lock) {
                got.add(new Sample(e.sequence(), e.sourceTimeNanos(), e.deadlineNanos(), e.doubleValue(), e.hopCount()));
            }
        })) {
            NodeConfig.StatusRouterSection router = new NodeConfig.StatusRouterSection();
            router.bind = "127.0.0.1:" + routerPort;
            router.routes = List.of(new NodeConfig.RouteEntry("7",
                    List.of("127.0.0.1:" + subscriber.localAddress().getPort())));
            // The test replays almost 17 s of 60 Hz source times in a burst, so the router is told
            // (through Config Admin, as an operator would) to trust source times that far ahead.
            router.sourceTimeAheadMs = 20_000;

            EquinoxNode node = EquinoxNode.start(Distribution.bundles(), NodeConfig.of("it-r1", null, router));
            try {
                Map<String, Object> service = node.awaitService(STATUS_ROUTER, EquinoxNode.TIMEOUT_MILLIS);
                assertNotNull(service, "router service; inactive bundles: " + node.inactiveBundles());
                assertEquals("it-r1", service.get("node.id"));
                assertTrue(node.inactiveBundles().isEmpty(), node.inactiveBundles().toString());
                assertTrue(LoopbackPorts.anySocketOn(routerPort), "router listens on its port");

                // Source times from now, and deadlines far enough ahead that a cold framework's first
                // events (class loading, JIT) are not dropped as misses: this test is about integrity.
                t0[0] = SystemClock.INSTANCE.nanos();
                try (Publisher publisher = Publisher.connect(new InetSocketAddress("127.0.0.1", routerPort))) {
                    Publication p = publisher.publication(VariableId.of(7), ServiceClass.HRT, Duration.ofSeconds(5));
                    for (int i = 0; i < EVENTS; i++) {
                        p.publish(59.9 + i * 0.0001, t0[0] + i * PERIOD);
                        if (i % 100 == 99) {
                            Thread.sleep(2); // stay within the socket buffers on a busy CI machine
                        }
                    }
                    assertEquals(0, publisher.sendErrors());
                }
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (size(got, lock) < EVENTS && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
            } finally {
                node.close();
            }
            synchronized (lock) {
                assertEquals(EVENTS, got.size(), "every event arrived");
                for (int i = 0; i < EVENTS; i++) {
                    Sample s = got.get(i);
                    assertEquals(i, s.seq(), "in order");
                    assertEquals(t0[0] + i * PERIOD, s.sourceTime(), "source timestamp intact");
                    assertEquals(t0[0] + i * PERIOD + 5_000_000_000L, s.deadline(), "deadline intact");
                    assertEquals(59.9 + i * 0.0001, s.value(), "value intact");
                    assertEquals(1, s.hops(), "one router crossed");
                }
            }
        }
        assertFalse(LoopbackPorts.anySocketOn(routerPort), "nothing left listening on the router's port");
        try (DatagramChannel again = DatagramChannel.open()) {
            again.bind(new InetSocketAddress("127.0.0.1", routerPort));
        }
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            assertFalse(t.getName().startsWith("gridstat-it-r1"), "event loop thread left running: " + t.getName());
        }
    }

    private static int size(List<?> list, Object lock) {
        synchronized (lock) {
            return list.size();
        }
    }
}
