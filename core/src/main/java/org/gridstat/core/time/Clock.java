package org.gridstat.core.time;

/**
 * The time source of everything in the data path. Time is nanoseconds since the Unix epoch (UTC,
 * GPS-aligned where the host is), the same scale as the source timestamps and deadlines in event
 * headers, so a router compares them directly. Implementations must not allocate per call.
 */
public interface Clock {
    /** Nanoseconds since 1970-01-01T00:00:00Z. */
    long nanos();
}
