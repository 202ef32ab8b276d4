package org.gridstat.sim.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.gridstat.sim.reproduce.CccTestbed.Figures;
import org.gridstat.sim.reproduce.CccTestbed.Row;
import org.junit.jupiter.api.Test;

/** The CCC testbed without congestion control, the published 100 s in full. */
class ReproCccTestbedTest {
    @Test
    void theBottleneckIsDerivedFromHalfTheHrtSamplesInTheLastInterval() {
        int wire = CccTestbed.SAMPLE_BYTES + 28;
        // four flows at 20 Hz within their reservations, two HRT flows at 30 of their 60 Hz
        assertEquals(4 * 20 * wire + 2 * 30 * wire, CccTestbed.BOTTLENECK);
    }

    @Test
    void withoutCongestionControlHrtMissesGrowWithItsRateWhileLrtAndBestEffortKeepTheirs() {
        Figures f = CccTestbed.run();
        f.admissions().forEach((stream, outcome) -> assertEquals("admitted", outcome, stream));
        for (String stream : CccTestbed.STREAMS) {
            Row start = f.row(stream, 0);
            assertEquals(800, start.offered(), start.toString());
            assertEquals(0, start.offered() - start.onTime(), "nothing is congested at 20 Hz: " + start);
            for (Row r : f.rows()) {
                assertEquals(0, r.overflowDrops(), "samples past their deadline are dropped before a buffer fills: " + r);
            }
            if (!stream.endsWith("HRT")) {
                for (long from : CccTestbed.INTERVALS) {
                    if (from < 100) {
                        Row r = f.row(stream, from);
                        assertEquals(0, r.offered() - r.onTime(), "within its reservation, served first: " + r);
                    }
                }
            }
        }
        assertEquals(1200, f.row("A-HRT", 40).offered() + f.row("B-HRT", 40).offered(), "A at 40 Hz, B at 20 Hz");
        // 60-80 s: both at 40 Hz, 2 x 11,520 B/s, where the bottleneck leaves HRT 40,320 - 4 x 5,760 =
        // 17,280 B/s, 60 of their 80 samples a second: together they miss the arithmetic's 25 %, since
        // no router sends a sample over the bottleneck too late to arrive (its least rest delay counts
        // its own link). A, served first at equal deadlines, misses 50 of them, B the rest.
        Row a60 = f.row("A-HRT", 60);
        Row b60 = f.row("B-HRT", 60);
        assertEquals(1600, a60.offered() + b60.offered());
        assertEquals(400, a60.offered() - a60.onTime() + b60.offered() - b60.onTime(), a60 + ", " + b60);
        for (String hrt : new String[] {"A-HRT", "B-HRT"}) {
            assertEquals(600, f.row(hrt, 90).offered());
            assertTrue(f.row(hrt, 90).missRatio() >= 0.5, "at least the published \"up to 50 %\": " + f.row(hrt, 90));
            assertTrue(f.row(hrt, 90).missRatio() >= f.row(hrt, 60).missRatio(), "misses grow with the rate");
        }
    }
}
