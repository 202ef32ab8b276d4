package org.gridstat.core.emulation;

import java.util.SplittableRandom;
import org.gridstat.core.time.Saturating;

/**
 * When an emulated link is down: outages start at the times of a Poisson process (an exponential
 * wait, mean {@code M}, from the end of one outage to the start of the next) and last a fixed
 * {@code D}. Only the current or next outage is kept.
 *
 * <p>Time moving on by a few cycles walks the schedule outage by outage. A jump across more than
 * {@link #WALK_LIMIT_CYCLES} mean cycles ({@code M + D}) does not: the schedule restarts at the new
 * instant from the process's stationary state, down with probability {@code D/(M+D)} and then
 * uniformly far into its outage, else up with an exponential wait for the next start (exact, the
 * exponential being memoryless). By then the state hardly depends on where the walk started, so a
 * query costs O(1) amortised however far time jumps, and the fraction of time down stays
 * {@code D/(M+D)}. Time should not go backwards: an earlier instant is answered from the current
 * outage only. Single-threaded.
 */
final class OutageSchedule {
    /** Jumps across more mean cycles than this restart the schedule instead of walking it. */
    static final long WALK_LIMIT_CYCLES = 64;

    private final long meanTimeBetween;
    private final long duration;
    private final long walkLimit;
    private final SplittableRandom random;
    private long downFrom;
    private long downUntil;
    /** Outages drawn so far, walking or restarting: what the queries cost, for tests. */
    long draws;

    /** @param meanTimeBetweenNanos 0 for a link that never goes down */
    OutageSchedule(long meanTimeBetweenNanos, long durationNanos, SplittableRandom random, long now) {
        this.meanTimeBetween = meanTimeBetweenNanos;
        this.duration = durationNanos;
        long cycle = Saturating.add(meanTimeBetweenNanos, durationNanos);
        this.walkLimit = cycle > Long.MAX_VALUE / WALK_LIMIT_CYCLES ? Long.MAX_VALUE : cycle * WALK_LIMIT_CYCLES;
        this.random = random;
        if (meanTimeBetweenNanos > 0) {
            scheduleAfter(now); // a link starts up
        } else {
            downFrom = Long.MAX_VALUE;
            downUntil = Long.MAX_VALUE;
        }
    }

    boolean isDown(long now) {
        if (now >= downUntil && downUntil != Long.MAX_VALUE) {
            advanceTo(now);
        }
        return now >= downFrom && now < downUntil;
    }

    private void advanceTo(long now) {
        if (Saturating.subtract(now, downUntil) > walkLimit) {
            restartAt(now);
            return;
        }
        do {
            scheduleAfter(downUntil);
        } while (now >= downUntil && downUntil != Long.MAX_VALUE);
    }

    /** Draws the state at {@code now} from the stationary distribution. */
    private void restartAt(long now) {
        double cycle = (double) meanTimeBetween + duration;
        if (random.nextDouble() * cycle < duration) {
            draws++;
            downFrom = Saturating.subtract(now, (long) (random.nextDouble() * duration));
            downUntil = Saturating.add(downFrom, duration);
        } else {
            scheduleAfter(now);
        }
    }

    private void scheduleAfter(long t) {
        draws++;
        // Exponential gaps make the outage starts a Poisson process; the cast saturates.
        double gap = -Math.log(1 - random.nextDouble()) * meanTimeBetween;
        downFrom = Saturating.add(t, Math.max(1, (long) gap));
        downUntil = Saturating.add(downFrom, duration);
    }
}
