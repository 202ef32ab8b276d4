package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.channel.embedded.EmbeddedChannel;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The wake-ups on an embedded event loop whose time the test moves with the monotonic clock, at
 * the ends of {@code long}: System.nanoTime's origin is arbitrary, so a reading may lie anywhere.
 */
class LoopWakeupsTest {
    private final EmbeddedChannel channel = new EmbeddedChannel();
    private ManualClock clock;
    private LoopWakeups wakeups;
    private int cycles;

    private void start(long monoNow) {
        channel.freezeTime();
        clock = new ManualClock(monoNow);
        wakeups = new LoopWakeups(channel.eventLoop(), clock, () -> cycles++);
    }

    /** Moves both clocks and runs what falls due; returns the delay of the next scheduled task, -1 for none. */
    private long advance(long nanos) {
        clock.advance(nanos);
        channel.advanceTimeBy(nanos, TimeUnit.NANOSECONDS);
        channel.runPendingTasks();
        return channel.runScheduledPendingTasks();
    }

    @AfterEach
    void close() {
        wakeups.close();
        channel.finishAndReleaseAll();
    }

    @Test
    void aWakeUpFarAheadOfAClockNearItsBottomIsATimerNotAnImmediateCycle() {
        start(Long.MIN_VALUE + 1_000);
        wakeups.wakeAt(Long.MAX_VALUE - 1); // (MAX - 1) - (MIN + 1000) wraps negative: "due now"
        channel.runPendingTasks();
        assertEquals(0, cycles, "not due for centuries");
        long next = channel.runScheduledPendingTasks();
        assertTrue(next > LoopWakeups.TICK_HORIZON_NANOS, "a one-shot timer far ahead, not a tick: next task in " + next + " ns");
    }

    @Test
    void aWakeUpLongDueAtAClockNearItsTopRunsAtOnce() {
        start(1L << 62);
        wakeups.wakeAt(Long.MIN_VALUE + (1L << 61)); // less 2^62 wraps to a wait of about 2^63: "never"
        channel.runPendingTasks();
        assertEquals(1, cycles, "due long ago: the cycle runs at once");
    }

    @Test
    void theTickStopsAfterItsLingerWithAClockNearItsBottom() {
        start(Long.MIN_VALUE + 1_000);
        wakeups.wakeAt(clock.nanoTime() + 1_000_000);
        assertEquals(LoopWakeups.TICK_NANOS, channel.runScheduledPendingTasks(), "a near wake-up starts the tick");
        for (int i = 0; i < 20; i++) {
            advance(LoopWakeups.TICK_NANOS);
        }
        assertEquals(1, cycles, "the tick ran the cycle when it was due");
        // Nothing waits now (Long.MAX_VALUE); MAX_VALUE - now wrapped negative and kept the tick forever.
        long next = 0;
        for (int i = 0; i <= LoopWakeups.LINGER_TICKS; i++) {
            next = advance(LoopWakeups.TICK_NANOS);
        }
        assertEquals(-1, next, "the tick stopped after " + LoopWakeups.LINGER_TICKS + " idle ticks");
        assertEquals(1, cycles);
    }

    @Test
    void nearWakeUpsAtTheTopOfTheClockStillRunOnTheTick() {
        start(Long.MAX_VALUE - 10_000_000);
        wakeups.wakeAt(clock.nanoTime() + 120_000);
        advance(LoopWakeups.TICK_NANOS);
        advance(LoopWakeups.TICK_NANOS);
        assertEquals(0, cycles, "100 us: not yet");
        advance(LoopWakeups.TICK_NANOS);
        assertEquals(1, cycles, "the first tick after 120 us");
    }
}
