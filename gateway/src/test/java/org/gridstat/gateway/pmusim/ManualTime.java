package org.gridstat.gateway.pmusim;

import org.gridstat.core.time.ManualClock;

/** A manual clock and a sleeper that wakes when a test moves the clock past the time it waits for. */
final class ManualTime implements Sleeper {
    final ManualClock clock;

    ManualTime(long startNanos) {
        clock = new ManualClock(startNanos);
    }

    synchronized void advance(long nanos) {
        clock.advance(nanos);
        notifyAll();
    }

    @Override
    public synchronized void sleepUntil(long epochNanos) throws InterruptedException {
        while (clock.nanos() < epochNanos) {
            wait();
        }
    }
}
