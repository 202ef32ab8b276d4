package org.gridstat.node.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.gridstat.core.congestion.SourceHold;
import org.gridstat.core.model.ServiceClass;
import org.junit.jupiter.api.Test;

/**
 * The real-time testbed starts its timeline on a whole second of the epoch, as the simulator's clock
 * does, so that its samples lie on the second-aligned grid GPS-disciplined PMUs sample on, and the
 * holds' rate filters keep the same samples in both.
 */
class TimelineStartTest {
    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    @Test
    void theTimelineStartsOnTheFirstWholeSecondAtOrAfterTheInstantGiven() {
        assertEquals(1_767_225_600L * S, RealTimeTestbed.secondAligned(1_767_225_600L * S), "already on a second");
        assertEquals(1_767_225_601L * S, RealTimeTestbed.secondAligned(1_767_225_600L * S + 1));
        assertEquals(1_767_225_601L * S, RealTimeTestbed.secondAligned(1_767_225_601L * S - 1));
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 10_000; i++) {
            long t = random.nextLong(1L << 62);
            long start = RealTimeTestbed.secondAligned(t);
            assertEquals(0, start % S, "a whole second: " + t);
            assertTrue(start >= t && start - t < S, "the first at or after " + t + ": " + start);
        }
    }

    @Test
    void theTimelineStartsOnAWholeSecondAtLeastTheLeadAfterTheClockIsRead() {
        long now = 1_767_225_600L * S + 123_456_789L;
        long start = RealTimeTestbed.timelineStart(now);
        assertEquals(0, start % S, "on a whole second");
        assertTrue(start - now >= 1_000 * MS && start - now < 2_000 * MS, "a lead of 1 to 2 s: " + (start - now));
        assertEquals(1_767_225_602L * S, start);
    }

    @Test
    void onTheGridAHoldKeepsTheSamplesTheSimulatorsHoldKeepsOffItOthers() {
        // Samples every 50 ms from 1 ms past a second (the testbed's PMUs), held to 8 Hz.
        long second = 1_767_225_600L * S;
        List<Long> onGrid = kept(second);
        assertEquals(List.of(1L, 101L, 251L, 351L, 501L, 601L, 751L, 851L), onGrid,
                "on the second-aligned grid, as the simulator's clock starts");
        assertTrue(!kept(second + 37_000_000L).equals(onGrid), "a timeline started off the grid keeps other samples");
    }

    /** Which of a second's samples (ms past the second) a hold of 8 Hz keeps, the timeline starting at {@code start}. */
    private static List<Long> kept(long start) {
        SourceHold hold = new SourceHold(ServiceClass.LRT, 50 * MS);
        hold.advise(8);
        List<Long> kept = new ArrayList<>();
        for (long t = 1 * MS; t < 2 * S; t += 50 * MS) {
            if (hold.send(start + t) && t >= S) {
                kept.add((t - S) / MS);
            }
        }
        return kept;
    }
}
