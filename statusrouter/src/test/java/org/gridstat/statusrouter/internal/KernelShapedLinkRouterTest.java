package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.forward.SourceTimeTrust;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.statusrouter.spi.KernelFlow;
import org.gridstat.statusrouter.spi.KernelFlowStatistics;
import org.gridstat.statusrouter.spi.KernelLink;
import org.gridstat.statusrouter.spi.KernelLinkPlan;
import org.gridstat.statusrouter.spi.KernelShaping;
import org.junit.jupiter.api.Test;

/**
 * A router's out-link given to the kernel to shape, against a provider that records what the
 * kernel is asked (the real one is the kernel-shaping bundle's, tested in network namespaces there).
 */
class KernelShapedLinkRouterTest {
    private static final long S = 1_000_000_000L;

    /** Records each plan and every list of flows applied. */
    static final class RecordingShaping implements KernelShaping {
        final List<KernelLinkPlan> plans = new CopyOnWriteArrayList<>();
        final List<List<KernelFlow>> applied = new CopyOnWriteArrayList<>();
        volatile boolean closed;
        final String refusal;

        RecordingShaping(String refusal) {
            this.refusal = refusal;
        }

        @Override
        public KernelLink open(KernelLinkPlan plan) throws Exception {
            if (refusal != null) {
                throw new Exception(refusal);
            }
            plans.add(plan);
            return new KernelLink() {
                @Override
                public void apply(List<KernelFlow> flows) {
                    applied.add(List.copyOf(flows));
                }

                @Override
                public List<KernelFlowStatistics> statistics() {
                    return List.of();
                }

                @Override
                public void close() {
                    closed = true;
                }
            };
        }
    }

    private static RouterSettings settings(int subscriberPort, String[] kernelLines, KernelShaping provider) {
        return settings(subscriberPort, 50_000, 20_000, 40_000, kernelLines, provider);
    }

    private static RouterSettings settings(int subscriberPort, long capacity, long assured, long ceiling,
                                           String[] kernelLines, KernelShaping provider) {
        return RouterSettings.of("k1", "127.0.0.1:0", 1, "auto", 1 << 20,
                        new String[] {"name=sub address=127.0.0.1:" + subscriberPort + " capacity=" + capacity},
                        new String[] {"id=5 variable=9 link=sub class=HRT assured=" + assured + " ceiling=" + ceiling},
                        new String[0], S, 0.5, 16)
                .trusting(new SourceTimeTrust(Long.MAX_VALUE, Long.MAX_VALUE))
                .withKernelShaping(kernelLines, provider);
    }

    @Test
    void theKernelIsGivenTheLinkThenItsFlowsThenEachRateChangeAndTheTreeGoesWithTheRouter() throws Exception {
        RecordingShaping kernel = new RecordingShaping(null);
        try (DatagramChannel sub = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            int port = ((InetSocketAddress) sub.getLocalAddress()).getPort();
            try (DataPlane router = DataPlane.start(settings(port, new String[] {"link=sub device=gs0"}, kernel))) {
                assertEquals(1, kernel.plans.size());
                KernelLinkPlan plan = kernel.plans.get(0);
                assertEquals("k1", plan.router());
                assertEquals("sub", plan.link());
                assertEquals("gs0", plan.device());
                assertEquals(new InetSocketAddress("127.0.0.1", port), plan.neighbour());
                assertNull(plan.priority());
                assertEquals(50_000, plan.spec().capacity());
                assertFalse(plan.spec().kernelShaped(), "the plan carries the link as configured");

                List<KernelFlow> first = await(kernel, flows -> !flows.isEmpty());
                assertEquals(List.of(new KernelFlow(5, 9, ServiceClass.HRT, 20_000, 40_000, 0, 0)), first);

                router.submit(List.of(FlowCommand.install(new FlowEntry(2, 9, 0,
                        FlowSpec.of(5, ServiceClass.HRT, 10_000, 0, 40_000, 20, ""), new long[0], 0, 0))));
                List<KernelFlow> halved = await(kernel, flows -> !flows.isEmpty() && flows.get(0).assuredRate() == 10_000);
                assertEquals(9, halved.get(0).variableId());

                router.submit(List.of(FlowCommand.remove(5, 3)));
                await(kernel, List::isEmpty);
                int applies = kernel.applied.size();
                long polls = 1_000_000_000L / KernelLinks.POLL_NANOS;
                Thread.sleep(1_000); // a hundred polls with nothing changed
                assertTrue(kernel.applied.size() - applies <= 2, "unchanged flows are applied again once a second,"
                        + " not at each of the " + polls + " polls: " + (kernel.applied.size() - applies) + " applies");
                assertFalse(kernel.closed);
            }
            assertTrue(kernel.closed, "the tree is removed with the data plane");
        }
    }

    /** So a tree the kernel lost (its device made anew, its root deleted) is built again though nothing changed. */
    @Test
    void flowsThatDoNotChangeAreAppliedAgainAboutOnceASecond() throws Exception {
        RecordingShaping kernel = new RecordingShaping(null);
        try (DatagramChannel sub = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            int port = ((InetSocketAddress) sub.getLocalAddress()).getPort();
            try (DataPlane router = DataPlane.start(settings(port, new String[] {"link=sub device=gs0"}, kernel))) {
                List<KernelFlow> first = await(kernel, flows -> !flows.isEmpty());
                int applies = kernel.applied.size();
                long deadline = System.nanoTime() + 3 * S;
                while (kernel.applied.size() == applies && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                assertTrue(kernel.applied.size() > applies, "applied again within 3 s");
                assertEquals(first, kernel.applied.get(kernel.applied.size() - 1), "the same flows");
            }
        }
    }

    @Test
    void aKernelShapedLinkSendsEachEventInADatagramOfItsOwnWhereTheRouterWouldPackThem() throws Exception {
        assertEquals(12, datagramsFor12Events(new String[] {"link=sub device=gs0"}, new RecordingShaping(null)));
        assertTrue(datagramsFor12Events(new String[0], null) < 12, "the router's own link packs them");
    }

    @Test
    void aLinkTheKernelCannotShapeOrNoBundleToShapeItIsShapedByTheRouter() throws Exception {
        RecordingShaping refusing = new RecordingShaping("no CAP_NET_ADMIN");
        assertTrue(datagramsFor12Events(new String[] {"link=sub device=gs0"}, refusing) < 12, "the router's own");
        assertTrue(datagramsFor12Events(new String[] {"link=sub device=gs0"}, null) < 12, "no bundle: the router's own");
    }

    @Test
    void badKernelShapingLinesAreRefusedNamingTheLine() {
        for (String[] bad : new String[][] {{"link=sub"}, {"device=eth0"}, {"link=sub device=a/b"},
                {"link=sub device=abcdefghijklmnop"}, {"link=sub device=eth0 estimator=magic"},
                {"link=sub device=eth0", "link=sub device=eth1"}, {"link=a device=eth0", "link=b device=eth0"},
                {"link=sub device=eth0 colour=red"}}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> settings(1, bad, null), String.join(" | ", bad));
            assertTrue(e.getMessage().contains("kernel.shaping"), e.getMessage());
        }
    }

    /** Datagrams the subscriber gets for 12 events the publisher sends in one batch. */
    private static int datagramsFor12Events(String[] kernelLines, KernelShaping provider) throws Exception {
        try (DatagramChannel sub = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            int port = ((InetSocketAddress) sub.getLocalAddress()).getPort();
            // a fast link and flow: the router's own scheduler releases the 12 at once, and packs them
            try (DataPlane router = DataPlane.start(settings(port, 125_000_000, 10_000_000, 10_000_000, kernelLines, provider));
                 Publisher publisher = Publisher.connect(router.localAddress())) {
                Publication p = publisher.publication(VariableId.of(9), ServiceClass.HRT, null);
                long t = System.currentTimeMillis() * 1_000_000L;
                for (int round = 0; round < 2; round++) { // the first round warms the path; the second is counted
                    long base = t + round * S;
                    publisher.publishTogether(() -> {
                        for (int i = 0; i < 12; i++) {
                            p.publish(i, base + i * 1_000_000L);
                        }
                    });
                    int events = 0;
                    int datagrams = 0;
                    ByteBuffer b = ByteBuffer.allocate(WireFormat.MAX_DATAGRAM_LENGTH);
                    sub.configureBlocking(false);
                    long deadline = System.nanoTime() + 5 * S;
                    while (events < 12 && System.nanoTime() < deadline) {
                        b.clear();
                        if (sub.receive(b) == null) {
                            Thread.sleep(1);
                            continue;
                        }
                        datagrams++;
                        events += b.get(WireFormat.FRAME_TYPE_OFFSET) == WireFormat.FRAME_TYPE_BATCH
                                ? b.getShort(4) : 1;
                    }
                    assertEquals(12, events, "every event arrives");
                    if (round == 1) {
                        return datagrams;
                    }
                }
            }
        }
        throw new AssertionError("unreachable");
    }

    private static List<KernelFlow> await(RecordingShaping kernel, Predicate<List<KernelFlow>> wanted)
            throws InterruptedException {
        long deadline = System.nanoTime() + 5 * S;
        while (System.nanoTime() < deadline) {
            List<List<KernelFlow>> all = new ArrayList<>(kernel.applied);
            if (!all.isEmpty() && wanted.test(all.get(all.size() - 1))) {
                return all.get(all.size() - 1);
            }
            Thread.sleep(2);
        }
        fail("not applied within 5 s; applied: " + kernel.applied);
        return null;
    }
}
