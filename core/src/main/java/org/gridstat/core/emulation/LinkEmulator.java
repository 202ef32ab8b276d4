package org.gridstat.core.emulation;

import java.util.SplittableRandom;

/**
 * The fate of each packet on an emulated link, decided when it leaves the sender: lost by
 * omission (independently, with a probability), lost because the link is down (outages start at
 * Poisson-distributed times and last a fixed duration), or delivered after the propagation delay.
 * Deterministic for a seed and a sequence of calls; time is passed in, so routers and the
 * simulator share it. Single-threaded; nothing allocated per packet.
 */
public final class LinkEmulator {
    /** What {@link #transmit} returns for a lost packet. */
    public static final long LOST = -1;

    private final long delayNanos;
    private final double loss;
    private final long meanTimeBetweenFaults;
    private final long faultDuration;
    private final SplittableRandom random;
    private long downFrom;
    private long downUntil;
    private long lostToOmission;
    private long lostToOutage;

    /**
     * @param meanTimeBetweenFaultsNanos mean time from the end of one outage to the start of the
     *                                   next; 0 for a link that never goes down
     */
    public LinkEmulator(long delayNanos, double loss, long meanTimeBetweenFaultsNanos, long faultDurationNanos, long seed,
                        long now) {
        if (delayNanos < 0 || faultDurationNanos < 0 || meanTimeBetweenFaultsNanos < 0) {
            throw new IllegalArgumentException("delays and durations must not be negative");
        }
        if (!(loss >= 0 && loss <= 1)) {
            throw new IllegalArgumentException("loss must be a probability in 0..1, got " + loss);
        }
        this.delayNanos = delayNanos;
        this.loss = loss;
        this.meanTimeBetweenFaults = meanTimeBetweenFaultsNanos;
        this.faultDuration = faultDurationNanos;
        this.random = new SplittableRandom(seed);
        if (meanTimeBetweenFaultsNanos > 0) {
            scheduleOutageAfter(now);
        } else {
            downFrom = Long.MAX_VALUE;
            downUntil = Long.MAX_VALUE;
        }
    }

    /**
     * Sends one packet at {@code now}.
     *
     * @return when it arrives at the far end, or {@link #LOST}
     */
    public long transmit(long now) {
        if (isDown(now)) {
            lostToOutage++;
            return LOST;
        }
        if (loss > 0 && random.nextDouble() < loss) {
            lostToOmission++;
            return LOST;
        }
        return now + delayNanos;
    }

    /** Whether the link is in an outage at {@code now}; advances the outage schedule as time passes. */
    public boolean isDown(long now) {
        while (now >= downUntil) {
            scheduleOutageAfter(downUntil);
        }
        return now >= downFrom;
    }

    private void scheduleOutageAfter(long t) {
        // Exponential gaps make the outage starts a Poisson process.
        double gap = -Math.log(1 - random.nextDouble()) * meanTimeBetweenFaults;
        downFrom = t + Math.max(1, (long) gap);
        downUntil = downFrom + faultDuration;
    }

    public long delayNanos() {
        return delayNanos;
    }

    public long lostToOmission() {
        return lostToOmission;
    }

    public long lostToOutage() {
        return lostToOutage;
    }
}
