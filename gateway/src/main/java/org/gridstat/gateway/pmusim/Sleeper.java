package org.gridstat.gateway.pmusim;

import java.util.concurrent.locks.LockSupport;
import org.gridstat.core.time.Clock;

/** Waits until an epoch time: the simulator's only way of passing time, so tests can drive it. */
@FunctionalInterface
public interface Sleeper {
    /** Returns once {@code epochNanos} has come (at once if it has); throws if the thread is interrupted. */
    void sleepUntil(long epochNanos) throws InterruptedException;

    /**
     * Parks the thread until the clock reaches the time: no spinning, and a wake-up a little late
     * (the scheduler's slack, typically tens of microseconds) rather than early.
     */
    static Sleeper parking(Clock clock) {
        return epochNanos -> {
            long left;
            while ((left = epochNanos - clock.nanos()) > 0) {
                LockSupport.parkNanos(left);
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
        };
    }
}
