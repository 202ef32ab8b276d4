package org.gridstat.node.testbed;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.gridstat.htb.mirror.HtbKernelShaping;
import org.gridstat.htb.netns.VethLink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The CCC testbed as {@link RealTimeCccTestbedTest} runs it, with its bottleneck
 * ({@code overlay->gwCC}) sent over a veth pair into a network namespace the test makes, shaped by
 * the kernel's HTB: the overlay router's scheduler releases at once and the class tree it mirrors
 * onto the pair decides. Timing on a shared machine decides it, so it runs only with
 * {@code -Dgridstat.realtime=true} in the test JVM, and as root.
 *
 * <p>What it holds: every stream misses at most {@link #TOLERANCE_POINTS} points more than the
 * simulator in every interval, 90-100 s included, where the link cannot carry every minimum rate:
 * the HRT flow congestion control could not cover is given what the victims' leaves can spare
 * above their minimum rates, which they keep, and each leaf queues no more than can leave within
 * its events' slack, so an HRT leaf a little short drops a few packets rather than sending all late.
 */
@EnabledIfSystemProperty(named = "gridstat.realtime", matches = "true")
class KernelCccTestbedTest {
    private static final double K = 4;
    /** As {@link RealTimeCccTestbedTest}'s tolerance, for the same reasons. */
    private static final double TOLERANCE_POINTS = 5;

    @Test
    void theKernelShapedBottleneckProtectsTheHrtStreamsAndKeepsTheVictimsMinimumRatesInEveryInterval() throws Exception {
        String why = VethLink.whyNot();
        assumeTrue(why == null, "network namespaces: " + why);
        CccComparison.Outcome o;
        try (VethLink veth = VethLink.create("gskt", "10.77.91.1/24", "10.77.91.2/24");
             HtbKernelShaping kernel = new HtbKernelShaping()) {
            o = CccComparison.run(true, K, System.out, new KernelBottleneck("overlay", "gwCC", veth, kernel));
        }
        System.out.print(CccComparison.markdown(o));
        o.real().admissions().forEach((stream, a) -> assertEquals("admitted", a, stream));
        for (String stream : new String[] {"A-HRT", "B-HRT", "A-LRT", "B-LRT", "A-BE", "B-BE"}) {
            for (long from : new long[] {0, 40, 60, 80, 90}) {
                CccComparison.Line l = o.line(stream, from);
                String where = stream + " " + l.fromSeconds() + "-" + l.toSeconds() + " s";
                if (stream.endsWith("HRT")) { // the others are held at their sources, each hold on its own grid
                    assertTrue(l.real().offered() > 0.95 * l.simOffered(), where + ": the publisher kept its rate");
                }
                assertTrue(l.differencePoints() <= TOLERANCE_POINTS, where + ": " + l.differencePoints()
                        + " points more misses than simulated");
            }
        }
    }
}
