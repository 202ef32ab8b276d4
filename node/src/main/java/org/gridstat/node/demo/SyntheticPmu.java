package org.gridstat.node.demo;

import java.util.concurrent.locks.LockSupport;
import org.gridstat.client.Publication;
import org.gridstat.core.time.Clock;

/**
 * A stand-in for a PMU: publishes a frequency reading at a fixed rate, each sample stamped with its
 * nominal, epoch-aligned sample time as a GPS-disciplined PMU would stamp it.
 */
final class SyntheticPmu implements Runnable {
    private static final double NOMINAL_HZ = 60.0;
    /** Parking overshoots by ~0.1 ms on a typical host; spin the last stretch to send on time. */
    private static final long SPIN_NANOS = 200_000;

    private final Publication publication;
    private final Clock clock;
    private final long intervalNanos;
    private volatile boolean running = true;
    private volatile long published;
    private volatile long publishedInAll;
    private volatile long countFrom = Long.MAX_VALUE;

    SyntheticPmu(Publication publication, Clock clock, double rateHz) {
        this.publication = publication;
        this.clock = clock;
        this.intervalNanos = Math.round(1e9 / rateHz);
    }

    @Override
    public void run() {
        long next = (clock.nanos() / intervalNanos + 1) * intervalNanos;
        while (running) {
            long wait = next - clock.nanos();
            if (wait > SPIN_NANOS) {
                LockSupport.parkNanos(wait - SPIN_NANOS);
                continue;
            }
            if (wait > 0) {
                Thread.onSpinWait();
                continue;
            }
            double seconds = next / 1e9;
            double frequency = NOMINAL_HZ + 0.02 * Math.sin(2 * Math.PI * seconds / 10);
            publication.publish(frequency, next);
            publishedInAll++;
            if (next >= countFrom) {
                published++;
            }
            next += intervalNanos;
        }
    }

    void stop() {
        running = false;
    }

    /** Counts only samples taken at or after {@code sourceTimeNanos} from now on. */
    void countFrom(long sourceTimeNanos) {
        countFrom = sourceTimeNanos;
    }

    /** Samples published since the start, those before {@link #countFrom} included. */
    long publishedInAll() {
        return publishedInAll;
    }

    /** Samples published since {@link #countFrom}. */
    long published() {
        return published;
    }
}
