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
        try (Stream<Path> jars = Files.list(Distribution.bundles())) {
            for (Path jar : jars.toList()) {
                if (!jar.getFileName().toString().startsWith("gridstat-congestion")) {
                    Files.copy(jar, bundles.resolve(jar.getFileName()));
                }
            }
        }
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

    private static NodeConfig config(String id, int port, Subscriber subscriber) {
        NodeConfig.StatusRouterSection router = new NodeConfig.StatusRouterSection();
        router.bind = "127.0.0.1:" + port;
        router.congestionControl = "on";
        router.routes = List.of(new NodeConfig.RouteEntry("7", List.of("127.0.0.1:" + subscriber.localAddress().getPort())));
        return NodeConfig.of(id, null, router);
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
