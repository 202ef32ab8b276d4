package org.gridstat.gui.model;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Latching as an alarm handler does it: until acknowledged, and again on a new occurrence. */
class AlarmLatchTest {
    private static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");

    private static Alarm lost(long count, int secondsLater) {
        return new Alarm("r2", "SESSION_LOST", "WARNING", "r2's control session ended", "r2's control session ended", count, T0,
                T0.plusSeconds(secondsLater), true);
    }

    @Test
    void aDecisionLatchesUntilAcknowledgedAndLatchesAgainWhenItRecurs() {
        AlarmLatch latch = new AlarmLatch();
        latch.update(List.of(lost(1, 0)));
        assertEquals(1, latch.latchedCount());
        assertEquals(1, latch.latchedAt("r2"));

        latch.update(List.of(lost(1, 0))); // the same answer again: still latched, still one
        assertTrue(latch.acknowledge(lost(1, 0).identity()));
        assertEquals(0, latch.latchedCount());
        AlarmLatch.Entry e = latch.entries().get(0);
        assertFalse(e.latched());
        assertTrue(e.acknowledged());

        latch.update(List.of(lost(1, 0)));
        assertEquals(0, latch.latchedCount(), "nothing new: stays acknowledged");
        latch.update(List.of(lost(2, 30)));
        assertEquals(1, latch.latchedCount(), "occurred again: latched again");
    }

    @Test
    void aLatchedAlarmTheBrokerForgetsStaysUntilAcknowledgedAndNoiseNeverLatches() {
        AlarmLatch latch = new AlarmLatch();
        Alarm noise = new Alarm("10.0.0.9", "MALFORMED_FRAME", "INFO", "bad frame", "bad frame", 3, T0, T0, false);
        latch.update(List.of(lost(1, 0), noise));
        assertEquals(1, latch.latchedCount(), "noise is listed, not latched");
        assertEquals(2, latch.entries().size());
        assertTrue(latch.entries().get(0).latched(), "latched first");

        latch.update(List.of()); // a restarted broker lists none
        assertEquals(1, latch.entries().size(), "the latched alarm stays; the noise goes");
        assertFalse(latch.entries().get(0).present());
        latch.acknowledge(lost(1, 0).identity());
        assertTrue(latch.entries().isEmpty(), "acknowledged and gone from the broker: gone");

        // after a restart the broker's count starts again at 1, but its last-seen time moves
        latch.update(List.of(lost(4, 10)));
        latch.acknowledge(lost(4, 10).identity());
        latch.update(List.of(lost(1, 20)));
        assertEquals(1, latch.latchedCount());
    }

    @Test
    void latchedAlarmsTheBrokerNoLongerListsAreBoundedTheLeastRecentlySeenLetGo() {
        AlarmLatch latch = new AlarmLatch();
        int n = AlarmLatch.MAX_GONE_LATCHED + 500;
        for (int i = 0; i < n; i++) { // each a new condition, gone at the next answer
            latch.update(List.of(new Alarm("r2", "CONGESTION_UNMET", "WARNING", "flow " + i, "short by " + i + " B/s", 1, T0,
                    T0.plusSeconds(i), true)));
        }
        latch.update(List.of());
        assertEquals(AlarmLatch.MAX_GONE_LATCHED, latch.entries().size());
        assertEquals(500, latch.evicted());
        assertEquals(AlarmLatch.MAX_GONE_LATCHED, latch.latchedCount());
        assertEquals("short by " + (n - 1) + " B/s", latch.entries().get(0).alarm().message(), "the most recent kept");
        assertTrue(latch.entries().stream().noneMatch(e -> e.alarm().message().equals("short by 499 B/s")),
                "the least recently seen let go");
    }

    @Test
    void oneConditionWhoseMessageCarriesChangingFiguresLatchesOnceWithItsLatestMessage() {
        AlarmLatch latch = new AlarmLatch();
        for (int i = 0; i < 50; i++) { // the broker folds it by its flow: one alarm, its count growing
            latch.update(List.of(new Alarm("r2", "CONGESTION_UNMET", "CRITICAL", "flow 12",
                    "flow 12 needs " + (100 + i) + " B/s more", i + 1, T0, T0.plusSeconds(i), true)));
        }
        assertEquals(1, latch.entries().size());
        assertEquals(1, latch.latchedCount());
        assertEquals("flow 12 needs 149 B/s more", latch.entries().get(0).alarm().message());
        latch.acknowledge(latch.entries().get(0).identity());
        assertEquals(0, latch.latchedCount());
        latch.update(List.of(new Alarm("r2", "CONGESTION_UNMET", "CRITICAL", "flow 12", "flow 12 needs 7 B/s more", 51, T0,
                T0.plusSeconds(60), true)));
        assertEquals(1, latch.latchedCount(), "raised again after the acknowledgement: latched again, still one");
        assertEquals(1, latch.entries().size());
    }
}
