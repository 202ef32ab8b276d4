package org.gridstat.tests;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.htb.netns.NetworkNamespace;
import org.gridstat.htb.netns.VethLink;
import org.gridstat.node.Distribution;
import org.gridstat.node.EquinoxNode;
import org.gridstat.node.NodeConfig;
import org.junit.jupiter.api.Test;

/**
 * The kernel-shaping bundle in a real Equinox node from the distribution's bundles: its native
 * library loads through {@code Bundle-NativeCode}, a router whose {@code kernelShaping} names a
 * link's device has the kernel shape it, and where the kernel cannot the router shapes the link itself.
 */
class KernelShapingNodeTest {
    private static final String STATUS_ROUTER = "org.gridstat.statusrouter.api.StatusRouter";
    private static final String KERNEL_SHAPING = "org.gridstat.statusrouter.spi.KernelShaping";

    private static NodeConfig.StatusRouterSection router(int port, String linkAddress, String device) {
        NodeConfig.StatusRouterSection r = new NodeConfig.StatusRouterSection();
        r.bind = "127.0.0.1:" + port;
        r.links = List.of(Map.of("name", "out", "address", linkAddress, "capacity", 100_000));
        r.flows = List.of(Map.of("id", 1, "variable", 7, "link", "out", "class", "HRT", "assured", 20_000,
                "ceiling", 40_000));
        r.kernelShaping = List.of(Map.of("link", "out", "device", device));
        return r;
    }

    @Test
    void theBundlesNativeLibraryLoadsInTheFrameworkAndTheKernelShapesTheRoutersLink() throws Exception {
        String why = VethLink.whyNot();
        assumeTrue(why == null, "network namespaces: " + why);
        int port = LoopbackPorts.free();
        try (VethLink veth = VethLink.create("gsn1", "10.77.51.1/24", "10.77.51.2/24");
             DatagramChannel far = NetworkNamespace.call(veth.farNamespace(),
                     () -> DatagramChannel.open().bind(new InetSocketAddress(veth.farAddress(), 0)))) {
            int farPort = ((InetSocketAddress) far.getLocalAddress()).getPort();
            EquinoxNode node = EquinoxNode.start(Distribution.bundles(), NodeConfig.of("kn-1", null,
                    router(port, veth.farAddress().getHostAddress() + ":" + farPort, veth.hostDevice())));
            try {
                assertNotNull(node.awaitService(KERNEL_SHAPING, EquinoxNode.TIMEOUT_MILLIS), "the bundle's service; inactive: "
                        + node.inactiveBundles());
                assertNotNull(node.awaitService(STATUS_ROUTER, EquinoxNode.TIMEOUT_MILLIS), node.inactiveBundles().toString());
                assertTrue(node.inactiveBundles().isEmpty(), node.inactiveBundles().toString());
                String classes = awaitTc(() -> tc("class", "show", "dev", veth.hostDevice()), "class htb 1:101 ");
                assertTrue(classes.contains("class htb 1:10 "), classes);

                far.configureBlocking(false);
                try (Publisher publisher = Publisher.connect(new InetSocketAddress("127.0.0.1", port))) {
                    Publication p = publisher.publication(VariableId.of(7), ServiceClass.HRT, Duration.ofSeconds(5));
                    for (int i = 0; i < 10; i++) {
                        p.publish(i);
                    }
                }
                List<Long> got = new ArrayList<>();
                ByteBuffer b = ByteBuffer.allocate(WireFormat.MAX_DATAGRAM_LENGTH);
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (got.size() < 10 && System.nanoTime() < end) {
                    b.clear();
                    if (far.receive(b) == null) {
                        Thread.sleep(5);
                    } else {
                        got.add(b.getLong(WireFormat.SEQUENCE_OFFSET));
                    }
                }
                assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), got, "through the kernel's tree, in order");
                assertTrue(tc("-s", "class", "show", "dev", veth.hostDevice()).contains("Sent"), "counted by the kernel");
            } finally {
                node.close();
            }
            assertFalse(tc("qdisc", "show", "dev", veth.hostDevice()).contains("htb"), "the tree went with the node");
        }
    }

    @Test
    void aLinkTheKernelCannotShapeIsShapedByTheRouterAndTheNodeRuns() throws Exception {
        int port = LoopbackPorts.free();
        List<Long> got = new CopyOnWriteArrayList<>();
        try (Subscriber subscriber = Subscriber.open(new InetSocketAddress("127.0.0.1", 0), e -> got.add(e.sequence()))) {
            EquinoxNode node = EquinoxNode.start(Distribution.bundles(), NodeConfig.of("kn-2", null,
                    router(port, "127.0.0.1:" + subscriber.localAddress().getPort(), "gsnosuch0")));
            try {
                assertNotNull(node.awaitService(STATUS_ROUTER, EquinoxNode.TIMEOUT_MILLIS), node.inactiveBundles().toString());
                assertTrue(node.inactiveBundles().isEmpty(), node.inactiveBundles().toString());
                try (Publisher publisher = Publisher.connect(new InetSocketAddress("127.0.0.1", port))) {
                    Publication p = publisher.publication(VariableId.of(7), ServiceClass.HRT, Duration.ofSeconds(5));
                    for (int i = 0; i < 10; i++) {
                        p.publish(i);
                    }
                }
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (got.size() < 10 && System.nanoTime() < end) {
                    Thread.sleep(10);
                }
                assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), got);
            } finally {
                node.close();
            }
        }
    }

    private static String awaitTc(java.util.concurrent.Callable<String> tc, String wanted) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String out = "";
        while (System.nanoTime() < end) {
            out = tc.call();
            if (out.contains(wanted)) {
                return out;
            }
            Thread.sleep(20);
        }
        fail("'" + wanted + "' not in\n" + out);
        return out;
    }

    private static String tc(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("tc"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        return out;
    }
}
