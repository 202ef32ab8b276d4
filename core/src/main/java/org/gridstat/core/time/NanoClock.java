package org.gridstat.core.time;

/**
 * The monotonic clock of the data path: it paces links, refills token buckets, times estimator
 * periods and arms wake-ups. Its origin is arbitrary and it never steps, so a wall-clock
 * correction (NTP) can neither stall nor burst a link. Compare its readings only with each other.
 * Implementations must not allocate per call.
 */
public interface NanoClock {
    /** Nanoseconds since an arbitrary origin; never decreases. */
    long nanoTime();
}
