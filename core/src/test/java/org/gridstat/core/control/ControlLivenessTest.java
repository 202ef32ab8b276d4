package org.gridstat.core.control;

import static org.junit.jupiter.api.Assertions.*;

import org.gridstat.core.control.ControlLiveness.Due;
import org.gridstat.core.control.ControlLiveness.Timing;
import org.gridstat.core.time.ManualClock;
import org.junit.jupiter.api.Test;

/** The heartbeat rule on a manual clock: when a heartbeat is due and when a peer counts as silent. */
class ControlLivenessTest {
    private static final long MS = 1_000_000L;
    private final ManualClock clock = new ManualClock(5_000 * MS);
    private final ControlLiveness liveness = new ControlLiveness(clock, Timing.ofMillis(1000, 3000));

    @Test
    void aHeartbeatIsDueOncePerPeriodOfNotSending() {
        assertEquals(Due.NOTHING, liveness.poll());
        clock.advance(999 * MS);
        assertEquals(Due.NOTHING, liveness.poll());
        clock.advance(MS);
        assertEquals(Due.HEARTBEAT, liveness.poll());
        assertEquals(Due.NOTHING, liveness.poll(), "the heartbeat returned counts as sent");
        clock.advance(600 * MS);
        liveness.sent(); // any other frame sent also resets the period
        clock.advance(999 * MS);
        assertEquals(Due.NOTHING, liveness.poll());
        clock.advance(MS);
        assertEquals(Due.HEARTBEAT, liveness.poll());
    }

    @Test
    void aPeerHeardFromWithinTheTimeoutIsKeptAndOneSilentForItIsGivenUp() {
        for (int i = 0; i < 10; i++) { // a peer heard every 2.9 s stays, however long
            clock.advance(2_900 * MS);
            assertNotEquals(Due.SILENT, liveness.poll());
            liveness.heard();
        }
        clock.advance(2_999 * MS);
        assertFalse(liveness.silent());
        assertNotEquals(Due.SILENT, liveness.poll());
        clock.advance(MS);
        assertTrue(liveness.silent());
        assertEquals(3_000 * MS, liveness.silenceNanos());
        assertEquals(Due.SILENT, liveness.poll(), "silence wins over a due heartbeat");
    }

    @Test
    void aNewConnectionsPeerHasTheWholeTimeoutToSpeak() {
        clock.advance(2_999 * MS);
        assertEquals(Due.HEARTBEAT, liveness.poll());
        clock.advance(MS);
        assertEquals(Due.SILENT, liveness.poll());
    }

    @Test
    void timingsThatCouldNotWorkAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Timing.ofMillis(1000, 1000));
        assertThrows(IllegalArgumentException.class, () -> Timing.ofMillis(0, 1000));
        assertThrows(IllegalArgumentException.class, () -> Timing.ofMillis(-1, 1000));
        assertThrows(IllegalArgumentException.class, () -> Timing.ofMillis(1, Long.MAX_VALUE));
        assertEquals(250 * MS, Timing.DEFAULT.pollNanos());
    }
}
