package org.gridstat.tests;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.node.Distribution;
import org.gridstat.node.EquinoxNode;
import org.gridstat.node.NodeConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Congestion control is a bundle of its own: a router node with it and {@code congestion.control=on}
 * takes congestion notices on TCP at its data port's number; the same node without the bundle's jar
 * starts, forwards as before and opens no notice port, until the bundle is deployed into it.
 */
class CongestionBundleNodeTest {
    private static final String STATUS_ROUTER = "org.gridstat.statusrouter.api.StatusRouter";
    private static final String CONGESTION_CONTROL = "org.gridstat.statusrouter.spi.CongestionControl";

    @Test
    void withTheBundleTheRouterTakesNoticesOnItsDataPortsNumber() throws Exception {
        int port = LoopbackPorts.free();
        List<Long> got = new CopyOnWriteArrayList<>();
        try (Subscriber subscriber = Subscriber.open(new InetSocketAddress("127.0.0.1", 0), e -> got.add(e.sequence()))) {
            EquinoxNode node = EquinoxNode.start(Distribution.bundles(), config("cc-with", port, subscriber));
            try {
                assertNotNull(node.awaitService(CONGESTION_CONTROL, EquinoxNode.TIMEOUT_MILLIS), "the bundle's service");
                assertNotNull(node.awaitService(STATUS_ROUTER, EquinoxNode.TIMEOUT_MILLIS),
                        "router service; inactive bundles: " + node.inactiveBundles());
                assertTrue(node.inactiveBundles().isEmpty(), node.inactiveBundles().toString());
                assertTrue(eventuallyAcceptsTcp(port), "notice channels listen on TCP " + port);
                assertDelivers(port, got);
            } finally {
                node.close();
            }
        }
    }

    @Test
    void withoutTheBundleTheRouterForwardsAsBeforeAndDeployingItIntoTheRunningNodeTurnsItOn(@TempDir Path bundles) throws Exception {
        copyAllButTheCongestionJar(bundles);
        int port = LoopbackPorts.free();
        List<Long> got = new CopyOnWriteArrayList<>();
        try (Subscriber subscriber = Subscriber.open(new InetSocketAddress("127.0.0.1", 0), e -> got.add(e.sequence()))) {
            EquinoxNode node = EquinoxNode.start(bundles, config("cc-without", port, subscriber));
            try {
                Map<String, Object> router = node.awaitService(STATUS_ROUTER, EquinoxNode.TIMEOUT_MILLIS);
                assertNotNull(router, "router service; inactive bundles: " + node.inactiveBundles());
                assertTrue(node.inactiveBundles().isEmpty(), node.inactiveBundles().toString());
                assertDelivers(port, got);
                assertFalse(acceptsTcp(port), "no notice channels without the bundle");

                String name = node.deploy(congestionJar());
                assertTrue(eventuallyAcceptsTcp(port), "the bundle deployed: the router restarted with notice channels");
                got.clear();
                assertDelivers(port, got);

                assertTrue(node.undeploy(name));
                assertTrue(eventually(() -> !acceptsTcp(port)), "the bundle gone: its notice channels closed");
                got.clear();
                assertDelivers(port, got);
            } finally {
                node.close();
            }
        }
    }

    /**
     * A router is stopped once when the framework stops, not first restarted without congestion
     * control (ports bound again, the broker dialled again) because the congestion bundle stopped
     * before it: neither when the bundle was deployed into the running node (the framework stops
     * the bundle installed last first) nor when the node started with it. Each start of the router
     * dials its broker once: here a socket that only counts them.
     */
    @Test
    void aNodeWithTheBundleDeployedStopsItsRouterOnceWithoutRestartingItOnTheWayDown(@TempDir Path bundles) throws Exception {
        copyAllButTheCongestionJar(bundles);
        assertEquals(2, routerStartsUntilStopped(bundles, true), "started, restarted with the bundle, and no more");
    }

    @Test
    void aNodeStartedWithTheBundleStopsItsRouterOnceWithoutRestartingItOnTheWayDown() throws Exception {
        assertEquals(1, routerStartsUntilStopped(Distribution.bundles(), false), "started, and no more");
    }

    /** How often a router node on {@code bundles} dialled its broker from its start to its stop, the bundle deployed or not. */
    private static int routerStartsUntilStopped(Path bundles, boolean deploy) throws Exception {
        int port = LoopbackPorts.free();
        try (java.net.ServerSocket broker = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
             Subscriber subscriber = Subscriber.open(new InetSocketAddress("127.0.0.1", 0), e -> { })) {
            List<Socket> dialled = new CopyOnWriteArrayList<>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        dialled.add(broker.accept());
                    }
                } catch (IOException closed) {
                    // done
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            NodeConfig.StatusRouterSection router = section(port, subscriber);
            router.broker = "127.0.0.1:" + broker.getLocalPort();
            router.heartbeatTimeoutMs = 120_000; // a silent broker is not left for another while the test runs
            EquinoxNode node = EquinoxNode.start(bundles, NodeConfig.of("cc-down", null, router));
            try {
                assertNotNull(node.awaitService(STATUS_ROUTER, EquinoxNode.TIMEOUT_MILLIS), node.inactiveBundles().toString());
                assertTrue(eventually(() -> dialled.size() == 1), "the router dials its broker: " + dialled.size());
                if (deploy) {
                    node.deploy(congestionJar());
                    assertTrue(eventually(() -> dialled.size() == 2), "the restarted router dials again: " + dialled.size());
                }
                assertTrue(eventuallyAcceptsTcp(port), "congestion control on");
            } finally {
                node.close();
            }
            Thread.sleep(500);
            for (Socket s : dialled) {
                s.close();
            }
            return dialled.size();
        }
    }

    /**
     * The router restarted by the bundle's coming and going while its broker is connected gets the
     * broker's flows back by resynchronisation each time, and leaves no notice thread behind.
     */
    @Test
    void theBrokersFlowsComeBackAfterEachRestartTheBundleCausesAndNoNoticeThreadIsLeft(@TempDir Path bundles) throws Exception {
        copyAllButTheCongestionJar(bundles);
        int port = LoopbackPorts.free();
        List<Long> got = new CopyOnWriteArrayList<>();
        try (org.gridstat.broker.control.ControlChannelServer broker = new org.gridstat.broker.control.ControlChannelServer(
                new InetSocketAddress("127.0.0.1", 0), java.util.Set.of("cc-resync"));
             Subscriber subscriber = Subscriber.open(new InetSocketAddress("127.0.0.1", 0), e -> got.add(e.sequence()))) {
            NodeConfig.StatusRouterSection router = section(port, subscriber);
            router.routes = List.of();
            router.links = List.of(Map.of("name", "cc", "address", "127.0.0.1:" + subscriber.localAddress().getPort()));
            router.broker = "127.0.0.1:" + broker.address().getPort();
            broker.install("cc-resync", new org.gridstat.core.control.ControlMessage.InstallFlow(1, 7, "cc",
                    org.gridstat.core.sched.FlowSpec.of(77, ServiceClass.BE, 20_000, 0, 1_000_000, 20, "sub-1"),
                    new long[0], 0, 0));
            EquinoxNode node = EquinoxNode.start(bundles, NodeConfig.of("cc-resync", null, router));
            try {
                assertNotNull(node.awaitService(STATUS_ROUTER, EquinoxNode.TIMEOUT_MILLIS), node.inactiveBundles().toString());
                Eventually.await(() -> broker.inSync("cc-resync"), "flow installed", 15);
                assertDelivers(port, got);

                String name = node.deploy(congestionJar());
                assertTrue(eventuallyAcceptsTcp(port), "restarted with notice channels");
                assertTrue(noticeThreads() > 0, "the notice channels' thread runs");
                Eventually.await(() -> broker.inSync("cc-resync"), "resynchronised", 15);
                assertDeliversOnceResynchronised(port, got);

                assertTrue(node.undeploy(name));
                assertTrue(eventually(() -> !acceptsTcp(port)), "notice channels closed");
                assertTrue(eventually(() -> noticeThreads() == 0), "notice threads left: " + noticeThreads());
                Eventually.await(() -> broker.inSync("cc-resync"), "resynchronised", 15);
                assertDeliversOnceResynchronised(port, got);
            } finally {
                node.close();
            }
        }
    }

    /** Ten events published reach the subscriber, in order, once the broker's flow is back: tried for 15 s. */
    private static void assertDeliversOnceResynchronised(int port, List<Long> got) throws Exception {
        long end = System.nanoTime() + 15_000_000_000L;
        while (true) {
            got.clear();
            try {
                assertDelivers(port, got);
                return;
            } catch (AssertionError notYet) {
                if (System.nanoTime() > end) {
                    throw notYet;
                }
            }
        }
    }

    private static long noticeThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("gridstat-notices")).count();
    }

    private static void copyAllButTheCongestionJar(Path bundles) throws IOException {
        try (Stream<Path> jars = Files.list(Distribution.bundles())) {
            for (Path jar : jars.toList()) {
                if (!jar.getFileName().toString().startsWith("gridstat-congestion")) {
                    Files.copy(jar, bundles.resolve(jar.getFileName()));
                }
            }
        }
    }

    private static NodeConfig config(String id, int port, Subscriber subscriber) {
        return NodeConfig.of(id, null, section(port, subscriber));
    }

    private static NodeConfig.StatusRouterSection section(int port, Subscriber subscriber) {
        NodeConfig.StatusRouterSection router = new NodeConfig.StatusRouterSection();
        router.bind = "127.0.0.1:" + port;
        router.congestionControl = "on";
        router.routes = List.of(new NodeConfig.RouteEntry("7", List.of("127.0.0.1:" + subscriber.localAddress().getPort())));
        return router;
    }

    /** Ten events published to the router reach the subscriber, in order. */
    private static void assertDelivers(int port, List<Long> got) throws Exception {
        try (Publisher publisher = Publisher.connect(new InetSocketAddress("127.0.0.1", port))) {
            Publication p = publisher.publication(VariableId.of(7), ServiceClass.BE, Duration.ofSeconds(5));
            for (int i = 0; i < 10; i++) {
                p.publish(i);
            }
        }
        long end = System.nanoTime() + 10_000_000_000L;
        while (got.size() < 10 && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), got);
    }

    private static Path congestionJar() throws IOException {
        try (Stream<Path> jars = Files.list(Distribution.bundles())) {
            return jars.filter(j -> j.getFileName().toString().startsWith("gridstat-congestion")).findFirst().orElseThrow();
        }
    }

    private static boolean eventuallyAcceptsTcp(int port) throws InterruptedException {
        return eventually(() -> acceptsTcp(port));
    }

    private static boolean eventually(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < end) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    private static boolean acceptsTcp(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
            return true;
        } catch (IOException refused) {
            return false;
        }
    }
}
