package org.gridstat.htb.mirror;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.htb.ClassStatistics;
import org.gridstat.htb.Htb;
import org.gridstat.htb.HtbUnavailableException;
import org.gridstat.htb.netns.VethLink;
import org.gridstat.statusrouter.spi.KernelFlow;
import org.gridstat.statusrouter.spi.KernelLinkPlan;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A link's class tree on a veth pair of the test's own: what it leaves on the device when it
 * cannot be built, and a tree the kernel lost built again.
 */
class LinkClassTreeLifecycleTest {
    private VethLink veth;
    private Htb htb;

    @BeforeEach
    void pair() throws Exception {
        String why = VethLink.whyNot();
        assumeTrue(why == null, "network namespaces: " + why);
        try {
            htb = Htb.open();
        } catch (HtbUnavailableException e) {
            assumeTrue(false, "no kernel shaping: " + e.reason());
        }
        veth = VethLink.create("gsx8", "10.77.208.1/24", "10.77.208.2/24");
    }

    @AfterEach
    void unpair() {
        if (veth != null) {
            veth.close();
        }
        if (htb != null) {
            htb.close();
        }
    }

    private KernelLinkPlan plan() {
        return new KernelLinkPlan("r", "l", veth.hostDevice(), new InetSocketAddress(veth.farAddress(), 9470), null,
                LinkSpec.ofPercent(1_000_000, 50, 30, 20, 0), FlowSpec.DEFAULT_BUFFER_EVENTS);
    }

    /**
     * Two routers of two processes (two sockets here) naming one device and starting together:
     * one builds its tree and keeps it; the other is refused and leaves the winner's root alone.
     */
    @Test
    void ofTwoTreesBuiltAtOnceOnOneDeviceOneIsBuiltAndTheOtherLeavesItAlone() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Htb other = Htb.open()) {
            for (int round = 0; round < 40; round++) {
                CyclicBarrier together = new CyclicBarrier(2);
                Future<LinkClassTree> a = pool.submit(building(htb, together));
                Future<LinkClassTree> b = pool.submit(building(other, together));
                LinkClassTree won = null;
                int built = 0;
                for (Future<LinkClassTree> f : java.util.List.of(a, b)) {
                    try {
                        won = f.get(10, TimeUnit.SECONDS);
                        built++;
                    } catch (ExecutionException refused) {
                        // the loser: the device has a root already
                    }
                }
                assertEquals(1, built, "round " + round + ": one of the two builds its tree");
                assertEquals("htb", htb.rootQdiscKind(veth.hostDevice()), "round " + round + ": the winner's root stays");
                assertEquals(5, htb.classes(veth.hostDevice()).size(),
                        "round " + round + ": the winner's link, unclassified leaf and three classes");
                won.close();
                assertNotEquals("htb", htb.rootQdiscKind(veth.hostDevice()));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private Callable<LinkClassTree> building(Htb socket, CyclicBarrier together) {
        return () -> {
            together.await();
            return LinkClassTree.build(socket, plan());
        };
    }

    /**
     * The kernel loses a link's tree when its device is removed and made again (a driver reload,
     * a tunnel or VLAN made anew) or its root qdisc is deleted: the next apply builds it again,
     * with every flow, so the link does not go unshaped while the router releases at once.
     */
    @Test
    void aTreeTheKernelLostIsBuiltAgainWithItsFlowsAtTheNextApply() throws Exception {
        String dev = veth.hostDevice();
        List<KernelFlow> flows = List.of(new KernelFlow(1, 7, ServiceClass.HRT, 20_000, 40_000, 0, 276),
                new KernelFlow(2, 0x8000_0000_0000_0009L, ServiceClass.BE, 5_000, 5_000, 0, 276));
        LinkClassTree tree = LinkClassTree.build(htb, plan());
        tree.apply(flows);
        List<ClassStatistics> built = rates(htb.classes(dev));

        htb.clear(dev); // its root deleted (tc qdisc del, gridstat htb clear)
        tree.apply(flows);
        assertEquals(built, rates(htb.classes(dev)), "the same classes at the same rates");
        assertEquals(2, tree.flowMinors().size());

        veth.close(); // the device goes
        assertThrows(org.gridstat.htb.HtbException.class, () -> tree.apply(flows), "no device: refused, tried again later");
        veth = VethLink.create("gsx8", "10.77.208.1/24", "10.77.208.2/24"); // and comes back, with its default qdisc
        tree.apply(flows);
        assertEquals("htb", htb.rootQdiscKind(dev));
        assertEquals(built, rates(htb.classes(dev)));
        String filters = tcFilters(dev);
        assertTrue(filters.contains("flowid 1:101") && filters.contains("flowid 1:102"), filters);

        tree.close();
        assertNotEquals("htb", htb.rootQdiscKind(dev), "and goes with the router");
    }

    private static String tcFilters(String dev) throws Exception {
        Process p = new ProcessBuilder("tc", "filter", "show", "dev", dev).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        return out;
    }

    /** Each class as built: minor, parent, rates and prio (not its counters). */
    private static List<ClassStatistics> rates(List<ClassStatistics> classes) {
        return classes.stream().map(c -> new ClassStatistics(c.minor(), c.parentMinor(), c.leaf(), c.rateBytesPerSecond(),
                c.ceilBytesPerSecond(), c.prio(), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)).toList();
    }

    /**
     * A link carries at most 4,095 flows in the kernel (u32 nodes). A flow beyond them is said (the
     * apply is refused, naming it) but does not hold back the others: a flow with a lower id than
     * theirs (the broker gives a flow back its id when it is planned again) left every flow after
     * it without its rate changes.
     */
    @Test
    void aFlowBeyondTheMostTheKernelSteersDoesNotHoldBackTheOthersChanges() throws Exception {
        LinkClassTree tree = LinkClassTree.build(htb, plan());
        List<KernelFlow> full = new java.util.ArrayList<>();
        for (long id = 2; id <= LinkClassTree.MAX_FLOWS + 1; id++) {
            full.add(new KernelFlow(id, 1_000 + id, ServiceClass.BE, 100, 100, 0, 276));
        }
        tree.apply(full);
        List<KernelFlow> next = new java.util.ArrayList<>(full);
        KernelFlow last = full.get(full.size() - 1);
        next.set(next.size() - 1, new KernelFlow(last.flowId(), last.variableId(), ServiceClass.BE, 200, 200, 0, 276));
        next.add(0, new KernelFlow(1, 999, ServiceClass.BE, 100, 100, 0, 276));
        IllegalStateException said = assertThrows(IllegalStateException.class, () -> tree.apply(next));
        int minor = tree.flowMinors().get(last.flowId());
        long rate = htb.classes(veth.hostDevice()).stream().filter(c -> c.minor() == minor).findFirst().orElseThrow()
                .rateBytesPerSecond();
        assertTrue(rate > 200, "the last flow's leaf at its new rate (scaled for the Ethernet header): " + rate);
        assertFalse(tree.flowMinors().containsKey(1L));
        assertTrue(said.getMessage().contains("not shaped by the kernel: [1]"), said.getMessage());
        tree.close();
    }
}
