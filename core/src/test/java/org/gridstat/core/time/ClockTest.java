package org.gridstat.core.time;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class ClockTest {
    @Test
    void manualClockMovesOnlyForward() {
        ManualClock c = new ManualClock(1_000);
        c.advance(500);
        assertEquals(1_500, c.nanos());
        c.set(2_000);
        assertEquals(2_000, c.nanos());
        assertThrows(IllegalArgumentException.class, () -> c.advance(-1));
        assertThrows(IllegalArgumentException.class, () -> c.set(1_999));
        assertEquals(2_000, c.nanos());
    }

    @Test
    void systemClockReadsWallTimeInNanoseconds() {
        long before = System.currentTimeMillis() * 1_000_000L;
        long reading = SystemClock.INSTANCE.nanos();
        long after = (System.currentTimeMillis() + 1) * 1_000_000L;
        assertTrue(reading >= before - 1_000_000L && reading <= after, before + " <= " + reading + " <= " + after);
    }
}
