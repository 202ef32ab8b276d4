package org.gridstat.htb.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.htb.Htb;
import org.gridstat.htb.netns.VethLink;
import org.gridstat.statusrouter.spi.KernelFlow;
import org.gridstat.statusrouter.spi.KernelLinkPlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * How long a link's tree takes the kernel to build, change and read with 100 and 1,000 flows, for
 * docs/BENCHMARKS.md; printed, not asserted (wall time). Runs only with
 * {@code -DargLine=-Dgridstat.bench=true}, as root.
 */
@EnabledIfSystemProperty(named = "gridstat.bench", matches = "true")
class KernelApplyTimesTest {
    @Test
    void timesOfTheTreesOperations() throws Exception {
        String why = VethLink.whyNot();
        assumeTrue(why == null, "network namespaces: " + why);
        try (VethLink veth = VethLink.create("gsb1", "10.77.250.1/24", "10.77.250.2/24"); Htb htb = Htb.open()) {
            for (int n : new int[] {100, 1000}) {
                for (int round = 0; round < 3; round++) {
                    LinkClassTree tree = LinkClassTree.build(htb, new KernelLinkPlan("r", "l", veth.hostDevice(),
                            new InetSocketAddress(veth.farAddress(), 9000), null, LinkSpec.ofPercent(125_000_000, 50, 30, 20, 0),
                            20));
                    List<KernelFlow> flows = flows(n, 10_000, -1, 0);
                    long t0 = System.nanoTime();
                    tree.apply(flows);
                    long t1 = System.nanoTime();
                    tree.apply(flows(n, 10_000, n / 2, 15_000)); // one flow's rate, as a reassignment moves it
                    long t2 = System.nanoTime();
                    tree.apply(flows(n, 10_000, n / 2, 15_000)); // unchanged: the check that the tree is still there
                    long t3 = System.nanoTime();
                    tree.apply(flows(n, 12_000, -1, 0)); // every flow's rate
                    long t4 = System.nanoTime();
                    assertEquals(n, tree.statistics().size());
                    long t5 = System.nanoTime();
                    tree.close();
                    long t6 = System.nanoTime();
                    System.out.printf("%,d flows: build and add %.1f ms, one rate %.2f ms, unchanged %.2f ms, every rate %.1f ms,"
                                    + " statistics %.1f ms, teardown %.1f ms%n", n, (t1 - t0) / 1e6, (t2 - t1) / 1e6,
                            (t3 - t2) / 1e6, (t4 - t3) / 1e6, (t5 - t4) / 1e6, (t6 - t5) / 1e6);
                }
            }
        }
    }

    /** {@code n} flows at {@code rate}, flow {@code changed} (an index, or -1) at {@code changedRate}. */
    private static List<KernelFlow> flows(int n, long rate, int changed, long changedRate) {
        List<KernelFlow> flows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ServiceClass c = i % 3 == 0 ? ServiceClass.HRT : i % 3 == 1 ? ServiceClass.LRT : ServiceClass.BE;
            flows.add(new KernelFlow(i + 1, 1_000 + i, c, i == changed ? changedRate : rate, 20_000, 0, 288));
        }
        return flows;
    }
}
