package org.gridstat.node.testbed;

import static org.junit.jupiter.api.Assertions.*;

import org.gridstat.sim.reproduce.CccTestbed;
import org.junit.jupiter.api.Test;

/**
 * Back-pressure end to end, with real parts on loopback: the CCC testbed's first 66 s, eight times
 * faster (8.25 s), with congestion control on. B's HRT PMU doubles its rate at 60 s; the overlay
 * lends best effort's bandwidth, holds it, and its notice travels over TCP to gwB and on to B's
 * best-effort publisher, which holds its samples at the source. Only what timing cannot change is
 * asserted: that the publishers were held at all, and never an HRT one.
 */
class NoticeChainTest {
    @Test
    void aNoticeFromTheCongestedRouterReachesTheVictimsPublisherWhichHoldsItsSamples() throws Exception {
        RealTimeTestbed.Result r = RealTimeTestbed.run(CccTestbed.scenario(CccTestbed.BOTTLENECK, 65,
                CccTestbed.congestion(true, CccTestbed.PERIOD)), 8, new long[] {0, 40, 60, 65}, null);
        r.admissions().forEach((stream, a) -> assertEquals("admitted", a, stream));
        assertTrue(r.heldAtSource().getOrDefault("B-BE", 0L) > 0, "B's best effort held at its source: " + r.heldAtSource());
        assertFalse(r.heldAtSource().containsKey("A-HRT") || r.heldAtSource().containsKey("B-HRT"),
                "an HRT publisher is never held: " + r.heldAtSource());
        RealTimeTestbed.Row b = r.row("B-BE", 60);
        assertTrue(b.offered() < 5 * 20, "B's best effort sent less than its 20 Hz after 60 s: " + b);
    }
}
