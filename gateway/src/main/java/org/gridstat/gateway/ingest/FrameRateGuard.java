package org.gridstat.gateway.ingest;

/**
 * A token bucket over data frames on the monotonic clock: a device sending faster than its limit
 * loses the excess (counted by the caller), so one flooding device cannot starve the others or
 * the publications behind it. Refilled for the time elapsed before each frame is charged.
 */
final class FrameRateGuard {
    private static final long S = 1_000_000_000L;
    private long ratePerSecond;
    private long burst;
    /** Tokens in units of 1/S frame, so integer arithmetic is exact at any rate. */
    private long tokens;
    private long last;

    void limit(long framesPerSecond, long nowNanos) {
        ratePerSecond = Math.max(1, framesPerSecond);
        burst = Math.max(5, ratePerSecond / 2) * S;
        tokens = burst;
        last = nowNanos;
    }

    /** Charges one frame; false if the device is over its limit. */
    boolean admit(long nowNanos) {
        long elapsed = nowNanos - last;
        if (elapsed > 0) {
            // elapsed × rate can overflow only after ~292 years / rate; capped by the burst anyway
            long add = elapsed >= burst / ratePerSecond ? burst : elapsed * ratePerSecond;
            tokens = Math.min(burst, tokens + add);
            last = nowNanos;
        }
        if (tokens < S) {
            return false;
        }
        tokens -= S;
        return true;
    }
}
