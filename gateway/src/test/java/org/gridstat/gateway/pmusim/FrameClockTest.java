package org.gridstat.gateway.pmusim;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class FrameClockTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long T = 1_700_000_000L * SECOND;

    @Test
    void numbersInstantsOnTheUtcGridAndGivesTheirFracSec() {
        FrameClock grid = new FrameClock(30, 3_000_000);
        long n = grid.instantAtOrAfter(T);
        assertEquals(1_700_000_000L * 30, n);
        assertEquals(T, grid.nanosOf(n));
        assertEquals(1_700_000_000L, grid.soc(n + 29));
        assertEquals(29 * 100_000, grid.fraction(n + 29));
        assertEquals(1_700_000_001L, grid.soc(n + 30));
        assertEquals(0, grid.fraction(n + 30));
    }

    @Test
    void anInstantIsNeverDueBeforeItsTime() {
        FrameClock grid = new FrameClock(30, 30);
        long n = grid.instantAtOrAfter(T) + 1;
        assertEquals(T + 33_333_334, grid.nanosOf(n), "1/30 s rounded up");
        assertEquals(n, grid.instantAtOrAfter(T + 1));
        assertEquals(n - 1, grid.instantAtOrBefore(T + 33_333_333));
        assertEquals(n, grid.instantAtOrBefore(T + 33_333_334));
        for (long t = T; t < T + SECOND; t += 7_777_777) {
            assertTrue(grid.nanosOf(grid.instantAtOrBefore(t)) <= t);
            assertTrue(grid.nanosOf(grid.instantAtOrAfter(t)) >= t);
            assertTrue(grid.instantAtOrAfter(t) - grid.instantAtOrBefore(t) <= 1);
        }
    }

    @Test
    void refusesARateThatDoesNotDivideTheTimeBase() {
        assertThrows(IllegalArgumentException.class, () -> new FrameClock(60, 1_000_000));
    }
}
