package org.gridstat.htb.mirror;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.congestion.CooperativeCongestionControl;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.htb.ClassStatistics;
import org.gridstat.htb.Htb;
import org.gridstat.htb.netns.NetworkNamespace;
import org.gridstat.htb.netns.VethLink;
import org.gridstat.statusrouter.api.EmbeddedRouter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A real router whose out-link leaves by a veth pair into a network namespace the test makes, the
 * kernel shaping it: the tree follows the broker's rates and congestion control's reassignments,
 * and the rate a flow gets at the far end follows the tree.
 */
class KernelShapedRouterTest {
    private static final long S = 1_000_000_000L;
    private static final int PAYLOAD = 200; // 248-byte frames, 276 B on the wire

    private VethLink veth;
    private Htb htb;
    private DatagramChannel far;
    private final Map<Long, AtomicLong> received = new ConcurrentHashMap<>();
    private Thread reader;

    @BeforeEach
    void pair() throws Exception {
        String why = VethLink.whyNot();
        assumeTrue(why == null, "network namespaces: " + why);
        htb = Htb.open();
        veth = VethLink.create("gsr1", "10.77.31.1/24", "10.77.31.2/24");
        far = NetworkNamespace.call(veth.farNamespace(), () -> DatagramChannel.open()
                .bind(new InetSocketAddress(veth.farAddress(), 0)));
        reader = new Thread(() -> {
            ByteBuffer b = ByteBuffer.allocate(WireFormat.MAX_DATAGRAM_LENGTH);
            while (far.isOpen()) {
                try {
                    b.clear();
                    far.receive(b);
                    received.computeIfAbsent(b.getLong(WireFormat.VARIABLE_ID_OFFSET), v -> new AtomicLong())
                            .addAndGet(b.position() + WireFormat.DATAGRAM_OVERHEAD); // on the wire, as reserved
                } catch (Exception e) {
                    return;
                }
            }
        }, "far-reader");
        reader.setDaemon(true);
        reader.start();
    }

    @AfterEach
    void unpair() throws Exception {
        if (far != null) {
            far.close();
        }
        if (veth != null) {
            veth.close();
        }
        if (htb != null) {
            htb.close();
        }
    }

    private EmbeddedRouter router(String flows, String congestion) throws Exception {
        return router(flows, congestion, "router");
    }

    private EmbeddedRouter router(String flows, String congestion, String estimator) throws Exception {
        int port = ((InetSocketAddress) far.getLocalAddress()).getPort();
        return EmbeddedRouter.start(Map.of("node.id", "kr", "data.bind", "127.0.0.1:0", "links",
                new String[] {"name=far address=" + veth.farAddress().getHostAddress() + ":" + port
                        + " capacity=40000 hrt=50 lrt=30 be=20"},
                "flows", flows.split("\n"), "kernel.shaping",
                new String[] {"link=far device=" + veth.hostDevice() + " estimator=" + estimator},
                "congestion.control", congestion, "estimator.period.ms", 100, "warm.up.frames", 0),
                congestion.equals("off") ? null : new CooperativeCongestionControl(), new HtbKernelShaping());
    }

    /**
     * Bytes per second the far end got of {@code variable} over {@code seconds}, publishing
     * meanwhile. Sources stop on a flag, never an interrupt: an interrupt in a send closes the channel.
     */
    private double measure(Runnable publishing, long variable, double seconds) throws InterruptedException {
        long from = received.computeIfAbsent(variable, v -> new AtomicLong()).get();
        long t0 = System.nanoTime();
        running = true;
        Thread p = new Thread(publishing);
        p.start();
        Thread.sleep((long) (seconds * 1000));
        long to = received.get(variable).get();
        double rate = (to - from) / ((System.nanoTime() - t0) / 1e9);
        running = false;
        p.join();
        return rate;
    }

    /** Whether the sources go on publishing. */
    private static volatile boolean running;

    /** Publishes {@code hz} samples a second on {@code p} while {@link #running}. */
    private static Runnable at(Publication p, int hz) {
        return () -> {
            byte[] payload = new byte[PAYLOAD];
            long next = System.nanoTime();
            while (running) {
                p.publish(payload, 0, payload.length, System.currentTimeMillis() * 1_000_000L);
                next += S / hz;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(wait);
                }
            }
        };
    }

    private ClassStatistics leafOf(int minor) throws Exception {
        return htb.classes(veth.hostDevice()).stream().filter(c -> c.minor() == minor).findFirst().orElse(null);
    }

    @Test
    void aFlowGetsItsRateAtTheFarEndAndHalfOfItWithinASecondOfTheBrokerHalvingIt() throws Exception {
        // 100 samples/s of 276 B = 27,600 B/s offered to a flow held at 10,000
        try (EmbeddedRouter r = router("id=1 variable=7 link=far class=BE assured=10000 ceiling=10000", "off");
             Publisher pub = Publisher.connect(r.dataAddress())) {
            Publication p = pub.publication(VariableId.of(7), ServiceClass.BE, null, Duration.ofMillis(10));
            awaitLeaf(LinkClassTree.FIRST_FLOW + 1);
            measure(at(p, 100), 7, 0.5); // the leaf's burst drains
            double full = measure(at(p, 100), 7, 2);
            assertEquals(10_000, full, 2_000, "the leaf's rate, at the IP layer (+-20 %)");

            r.submit(List.of(FlowCommand.install(new FlowEntry(2, 7, 0,
                    FlowSpec.of(1, ServiceClass.BE, 5_000, 0, 5_000, 20, ""), new long[0], 0, 0))));
            running = true;
            Thread publishing = new Thread(at(p, 100));
            publishing.start();
            long changed = System.nanoTime();
            Thread.sleep(1000);
            long from = received.get(7L).get();
            long t0 = System.nanoTime();
            Thread.sleep(2000);
            double half = (received.get(7L).get() - from) / ((System.nanoTime() - t0) / 1e9);
            running = false;
            publishing.join();
            assertEquals(full / 2, half, full / 2 * 0.2, "half the rate, measured from a second after the change");
            ClassStatistics leaf = leafOf(LinkClassTree.FIRST_FLOW + 1);
            assertTrue(leaf.rateBytesPerSecond() < 6_000, "the kernel's leaf: " + leaf);
            assertTrue(System.nanoTime() - changed < 10 * S);
        }
        assertNotEquals("htb", htb.rootQdiscKind(veth.hostDevice()), "the tree goes with the router");
    }

    @Test
    void congestionControlLendingToASurgingHrtFlowRaisesItsKernelClass() throws Exception {
        // HRT reserved 5,000 and offered ~13,800 (50 Hz x 276 B); best effort reserved 8,000, may go down to 1,000
        try (EmbeddedRouter r = router("id=1 variable=7 link=far class=HRT assured=5000 ceiling=20000\n"
                + "id=2 variable=8 link=far class=BE assured=8000 minimum=1000 ceiling=8000", "local");
             Publisher pub = Publisher.connect(r.dataAddress())) {
            Publication hrt = pub.publication(VariableId.of(7), ServiceClass.HRT, null, Duration.ofMillis(20));
            Publication be = pub.publication(VariableId.of(8), ServiceClass.BE, null, Duration.ofMillis(40));
            int hrtLeaf = awaitLeaf(LinkClassTree.FIRST_FLOW + 1);
            long before = leafOf(hrtLeaf).rateBytesPerSecond();
            assertTrue(before < 7_000, "the reservation, scaled for the Ethernet header: " + before);
            Runnable both = () -> {
                Thread beSource = new Thread(at(be, 25));
                beSource.start();
                at(hrt, 50).run();
                try {
                    beSource.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            measure(both, 7, 3); // the surge: congestion control lends within a few periods
            long after = leafOf(hrtLeaf).rateBytesPerSecond();
            assertTrue(after > 12_000, "the kernel class follows the reassignment: " + before + " -> " + after);
            double got = measure(both, 7, 2);
            assertTrue(got > 12_000, "and the flow gets it at the far end: " + got + " B/s");
        }
    }

    @Test
    void withTheKernelsEstimatorAFlowsDemandIsWhatItsClassTookInEvenFromBeyondTheRouter() throws Exception {
        // 50 samples/s through the router, and as many of the same variable sent to the far end from
        // another socket: the kernel steers both into the flow's leaf; the router sees only its own
        for (String estimator : new String[] {"kernel", "router"}) {
            try (EmbeddedRouter r = router("id=1 variable=7 link=far class=BE assured=40000 ceiling=40000", "off", estimator);
                 Publisher pub = Publisher.connect(r.dataAddress());
                 DatagramChannel beside = DatagramChannel.open()) {
                Publication p = pub.publication(VariableId.of(7), ServiceClass.BE, null, Duration.ofMillis(20));
                awaitLeaf(LinkClassTree.FIRST_FLOW + 1);
                InetSocketAddress to = (InetSocketAddress) far.getLocalAddress();
                ByteBuffer frame = ByteBuffer.allocate(WireFormat.HEADER_LENGTH + PAYLOAD);
                frame.putInt(0, 0x4753_0101).putLong(WireFormat.VARIABLE_ID_OFFSET, 7);
                Runnable both = () -> {
                    Thread t = new Thread(at(p, 50));
                    t.start();
                    long next = System.nanoTime();
                    try {
                        while (running) {
                            beside.send(frame.clear(), to);
                            next += S / 50;
                            long wait = next - System.nanoTime();
                            if (wait > 0) {
                                java.util.concurrent.locks.LockSupport.parkNanos(wait);
                            }
                        }
                        t.join();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                };
                measure(both, 7, 3);
                double demand = r.counters().links().get("far").flow(1).queue().demandRate();
                if (estimator.equals("kernel")) {
                    assertEquals(27_600, demand, 27_600 * 0.2, "both senders' 50 x 276 B/s, from the kernel's counters");
                } else {
                    assertEquals(13_800, demand, 13_800 * 0.2, "the router's own arrivals only");
                }
            }
        }
    }

    private int awaitLeaf(int minor) throws Exception {
        long deadline = System.nanoTime() + 5 * S;
        while (System.nanoTime() < deadline) {
            if (leafOf(minor) != null) {
                return minor;
            }
            Thread.sleep(10);
        }
        fail("no class 1:" + Integer.toHexString(minor) + " on " + veth.hostDevice() + ": "
                + htb.classes(veth.hostDevice()));
        return -1;
    }
}
