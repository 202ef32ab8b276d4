package org.gridstat.gateway.aggregate;

import java.time.Duration;
import java.util.Objects;

/**
 * How readings are folded.
 *
 * @param interval the aggregation interval, a whole number of milliseconds; intervals start at
 *        multiples of it since 1970-01-01T00:00:00Z, so 1 s, 10 s or 1 min intervals lie on the UTC grid
 * @param grace an interval is closed and emitted once the clock passes its end plus this; readings
 *        for it after that are late (counted, dropped)
 * @param openIntervals intervals held open at once per region, the oldest open one first; a reading
 *        for an interval beyond them is dropped as ahead. Must cover grace plus the decoder's
 *        allowance ahead, in intervals, plus one
 * @param maxRegions regions held at once; a hello for another region is refused
 * @param maxMeters meters known at once; a hello for another meter is refused
 * @param forgetAfter a meter with no connection for this long is forgotten: until then it is
 *        counted missing in each interval it does not report in
 */
public record AggregatorSettings(Duration interval, Duration grace, int openIntervals, int maxRegions, int maxMeters,
                                 Duration forgetAfter) {
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(1);
    public static final int DEFAULT_OPEN_INTERVALS = 8;
    public static final int DEFAULT_MAX_REGIONS = 1_024;
    public static final int DEFAULT_MAX_METERS = 100_000;
    public static final Duration DEFAULT_FORGET_AFTER = Duration.ofMinutes(10);

    public AggregatorSettings {
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(grace, "grace");
        Objects.requireNonNull(forgetAfter, "forgetAfter");
        if (interval.toMillis() < 1 || interval.toNanos() % 1_000_000 != 0 || interval.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the interval must be a whole number of milliseconds, at least 1: " + interval);
        }
        if (grace.isNegative() || forgetAfter.isNegative()) {
            throw new IllegalArgumentException("grace and forgetAfter must not be negative");
        }
        if (openIntervals < 1 || openIntervals > 1_000) {
            throw new IllegalArgumentException("openIntervals must be 1 to 1000: " + openIntervals);
        }
        if (maxRegions < 1 || maxRegions > 65_536) {
            throw new IllegalArgumentException("maxRegions must be 1 to 65536: " + maxRegions);
        }
        if (maxMeters < 1) {
            throw new IllegalArgumentException("maxMeters must be at least 1: " + maxMeters);
        }
    }

    /** 1 s intervals, 1 s grace, 8 open intervals, 1,024 regions, 100,000 meters, forgotten after 10 min. */
    public static AggregatorSettings defaults() {
        return new AggregatorSettings(DEFAULT_INTERVAL, DEFAULT_GRACE, DEFAULT_OPEN_INTERVALS, DEFAULT_MAX_REGIONS,
                DEFAULT_MAX_METERS, DEFAULT_FORGET_AFTER);
    }

    public AggregatorSettings withInterval(Duration d) {
        return new AggregatorSettings(d, grace, openIntervals, maxRegions, maxMeters, forgetAfter);
    }

    public AggregatorSettings withGrace(Duration d) {
        return new AggregatorSettings(interval, d, openIntervals, maxRegions, maxMeters, forgetAfter);
    }

    public AggregatorSettings withOpenIntervals(int n) {
        return new AggregatorSettings(interval, grace, n, maxRegions, maxMeters, forgetAfter);
    }

    public AggregatorSettings withMaxRegions(int n) {
        return new AggregatorSettings(interval, grace, openIntervals, n, maxMeters, forgetAfter);
    }

    public AggregatorSettings withMaxMeters(int n) {
        return new AggregatorSettings(interval, grace, openIntervals, maxRegions, n, forgetAfter);
    }

    public AggregatorSettings withForgetAfter(Duration d) {
        return new AggregatorSettings(interval, grace, openIntervals, maxRegions, maxMeters, d);
    }
}
