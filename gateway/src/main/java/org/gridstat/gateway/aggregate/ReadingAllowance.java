package org.gridstat.gateway.aggregate;

/**
 * A token bucket over one connection's records on the monotonic clock. Unlike a drop policy, an
 * exhausted allowance pauses the connection: the records wait in the meter's socket and TCP slows
 * the meter down, so a fast meter costs the gateway neither memory nor other meters' readings.
 */
final class ReadingAllowance {
    private static final long S = 1_000_000_000L;
    private final long perSecond;
    /** In units of 1/S record, so integer arithmetic is exact at any rate. */
    private final long burst;
    private long tokens;
    private long last;

    ReadingAllowance(int perSecond, int burst, long nowNanos) {
        if (perSecond < 1 || burst < 1) {
            throw new IllegalArgumentException("rate and burst must be at least 1: " + perSecond + ", " + burst);
        }
        this.perSecond = perSecond;
        this.burst = burst * S;
        this.tokens = this.burst;
        this.last = nowNanos;
    }

    /** Whether a record must wait: less than one left after refilling for the time elapsed. */
    boolean exhausted(long nowNanos) {
        long elapsed = nowNanos - last;
        if (elapsed > 0) {
            long add = elapsed >= burst / perSecond ? burst : elapsed * perSecond;
            tokens = Math.min(burst, tokens + add);
            last = nowNanos;
        }
        return tokens < S;
    }

    /** Charges one record (call after {@link #exhausted} said false). */
    void spend() {
        tokens -= S;
    }
}
