package org.gridstat.core.filter;

import org.gridstat.core.time.Saturating;

/**
 * The instants at which a periodic stream samples, aligned to absolute time so that every
 * publisher and every router agrees on them.
 *
 * <p>For a whole number of samples per second (60 Hz, 30 Hz, 25 Hz ...) the grid restarts at every
 * second: point {@code j} of second {@code s} lies at {@code s·10⁹ + ⌈j·10⁹/R⌉} ns, as IEEE C37.118
 * timestamps (SOC + FRACSEC) place them. Multiples of a rounded interval since 1970 would not do:
 * 60 Hz rounded to 16,666,667 ns drifts a minute away from the true instants over the epoch.
 * Other intervals (whole seconds, or rates with no whole number per second) are plain multiples of
 * the interval since the epoch.
 */
public final class SampleGrid {
    private static final long SECOND = 1_000_000_000L;

    private final long intervalNanos;
    /** Points per second when second-aligned, else 0. */
    private final long perSecond;

    private SampleGrid(long intervalNanos, long perSecond) {
        this.intervalNanos = intervalNanos;
        this.perSecond = perSecond;
    }

    /**
     * @param intervalNanos the nominal interval; an integer rate's rounded interval (16,666,667 ns
     *                      for 60 Hz) selects that rate's second-aligned grid
     */
    public static SampleGrid ofInterval(long intervalNanos) {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("interval must be positive, got " + intervalNanos + " ns");
        }
        if (intervalNanos < SECOND) {
            long rate = Math.round((double) SECOND / intervalNanos);
            if (rate >= 1 && Math.round((double) SECOND / rate) == intervalNanos) {
                return new SampleGrid(intervalNanos, rate);
            }
        }
        return new SampleGrid(intervalNanos, 0);
    }

    /** The highest whole rate a grid is made for, samples per second. */
    public static final int MAX_RATE_HZ = 1_000_000;

    /** The grid of a whole number of samples per second. */
    public static SampleGrid ofRate(int hz) {
        if (hz < 1 || hz > MAX_RATE_HZ) {
            throw new IllegalArgumentException("rate must be 1..1000000 Hz, got " + hz);
        }
        return new SampleGrid(Math.round((double) SECOND / hz), hz);
    }

    public long intervalNanos() {
        return intervalNanos;
    }

    /** Samples per second if the interval is a whole rate's (60 Hz: 16,666,667 ns), else 0. */
    public long wholeRate() {
        return perSecond;
    }

    /**
     * The latest grid point at or before {@code t}; {@link Long#MIN_VALUE} if none is representable.
     * Computed as {@code t} less its distance past the point, so no instant overflows.
     */
    public long floor(long t) {
        return Saturating.subtract(t, sincePoint(t));
    }

    /**
     * The earliest grid point strictly after {@code t}: when a publisher takes its next sample;
     * {@link Long#MAX_VALUE} if none is representable.
     */
    public long next(long t) {
        if (perSecond == 0) {
            return Saturating.add(t, intervalNanos - Math.floorMod(t, intervalNanos));
        }
        long frac = Math.floorMod(t, SECOND);
        long j = frac * perSecond / SECOND + 1;
        long point = j == perSecond ? SECOND : ceilDiv(j * SECOND, perSecond);
        return Saturating.add(t, point - frac);
    }

    /** How far {@code t} lies past the latest grid point at or before it. */
    private long sincePoint(long t) {
        if (perSecond == 0) {
            return Math.floorMod(t, intervalNanos);
        }
        long frac = Math.floorMod(t, SECOND);
        long j = frac * perSecond / SECOND;
        return frac - ceilDiv(j * SECOND, perSecond);
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }

    @Override
    public String toString() {
        return perSecond != 0 ? "SampleGrid[" + perSecond + "/s]" : "SampleGrid[every " + intervalNanos + " ns]";
    }
}
