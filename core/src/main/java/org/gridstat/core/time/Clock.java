package org.gridstat.core.time;

/**
 * The epoch clock: nanoseconds since the Unix epoch (UTC, GPS-aligned where the host is), the
 * scale of the source timestamps and end-to-end deadlines in event headers and of the rate
 * filter's grids. It may step when the host's time is corrected, so the data path uses it only to
 * compare with those header fields; pacing, token buckets and timers run on a {@link NanoClock}.
 * Implementations must not allocate per call.
 */
public interface Clock {
    /** Nanoseconds since 1970-01-01T00:00:00Z. */
    long nanos();
}
