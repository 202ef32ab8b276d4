package org.gridstat.core.filter;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class SampleGridTest {
    private static final long S = 1_000_000_000L;
    private static final long NOW = 1_790_000_000L * S; // late 2026

    @Test
    void integerRatesRestartAtEverySecondEvenFarFromTheEpoch() {
        SampleGrid g = SampleGrid.ofInterval(16_666_667L);
        long t = NOW;
        assertEquals(NOW, g.floor(NOW));
        for (int i = 1; i <= 60; i++) {
            long next = g.next(t);
            long gap = next - t;
            assertTrue(gap == 16_666_666L || gap == 16_666_667L, "gap " + gap + " at point " + i);
            assertEquals(next, g.floor(next), "a grid point is its own floor");
            assertEquals(t, g.floor(next - 1), "the floor of the instant before a point is the previous point");
            t = next;
        }
        assertEquals(NOW + S, t, "sixty points later is exactly the next second");
    }

    @Test
    void ratesThatDivideTheSecondAreExactMultiples() {
        SampleGrid g = SampleGrid.ofRate(25);
        assertEquals(40_000_000L, g.intervalNanos());
        assertEquals(NOW + 40_000_000L, g.next(NOW));
        assertEquals(NOW + 80_000_000L, g.floor(NOW + 119_999_999L));
    }

    @Test
    void longAndOddIntervalsAreMultiplesSinceTheEpoch() {
        SampleGrid twoSeconds = SampleGrid.ofInterval(2 * S);
        assertEquals(NOW, twoSeconds.floor(NOW + S)); // NOW is an even second
        assertEquals(NOW + 2 * S, twoSeconds.next(NOW));
        SampleGrid odd = SampleGrid.ofInterval(7_000_001L); // no whole rate per second
        assertEquals(0, odd.floor(NOW + 3) % 7_000_001L);
        assertEquals(odd.floor(NOW) + 7_000_001L, odd.next(NOW));
    }

    @Test
    void beforeTheEpochStillFloorsDownward() {
        SampleGrid g = SampleGrid.ofRate(60);
        assertEquals(-S, g.floor(-S + 5));
        assertEquals(-16_666_666L, g.floor(-1)); // point 59 of second -1 lies at -1e9 + 983,333,334
    }

    @Test
    void theEndsOfTimeSaturateInsteadOfWrapping() {
        SampleGrid g = SampleGrid.ofRate(60);
        assertEquals(9_223_372_036_850_000_000L, g.floor(Long.MAX_VALUE), "point 51 of the last second");
        assertEquals(Long.MAX_VALUE, g.next(Long.MAX_VALUE - 1), "point 52 lies past the end");
        assertEquals(Long.MIN_VALUE, g.floor(Long.MIN_VALUE + 1), "point 8 of the first second lies before it");
        assertEquals(-9_223_372_036_850_000_000L, g.next(Long.MIN_VALUE), "point 9 does not");
        for (SampleGrid other : new SampleGrid[] {SampleGrid.ofInterval(3 * S), SampleGrid.ofInterval(7_000_001L)}) {
            for (long t : new long[] {Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1, Long.MAX_VALUE}) {
                long floor = other.floor(t);
                long next = other.next(t);
                assertTrue(floor <= t && (floor == Long.MIN_VALUE || other.floor(floor) == floor),
                        other + " floor of " + t);
                assertTrue(next > t && other.floor(next) == next || next == Long.MAX_VALUE, other + " next of " + t);
            }
        }
    }

    @Test
    void tellsWholeRatesFromOthers() {
        assertEquals(60, SampleGrid.ofInterval(16_666_667L).wholeRate());
        assertEquals(120, SampleGrid.ofInterval(8_333_333L).wholeRate());
        assertEquals(0, SampleGrid.ofInterval(7_000_001L).wholeRate());
        assertEquals(0, SampleGrid.ofInterval(2 * S).wholeRate());
    }

    @Test
    void rejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> SampleGrid.ofInterval(0));
        assertThrows(IllegalArgumentException.class, () -> SampleGrid.ofRate(0));
    }
}
