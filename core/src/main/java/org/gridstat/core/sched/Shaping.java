package org.gridstat.core.sched;

/**
 * HTB parameters of one node of the link hierarchy (a class or a flow): the assured rate it may
 * always use, the ceiling it may borrow up to, and the bursts (in bytes) it may send at once.
 */
public final class Shaping {
    /** The largest burst, in bytes (it keeps token arithmetic in 1e-9 byte units within a long). */
    public static final long MAX_BURST = 1_000_000_000L;

    private final long rate;
    private final long ceil;
    private final long burst;
    private final long cburst;

    private Shaping(long rate, long ceil, long burst, long cburst) {
        if (rate < 0) {
            throw new IllegalArgumentException("rate must not be negative, got " + rate + " B/s");
        }
        if (ceil <= 0 || ceil < rate) {
            throw new IllegalArgumentException("ceil must be positive and at least the rate (" + rate + " B/s), got "
                    + ceil + " B/s");
        }
        if (burst < 0 || cburst < 0 || burst > MAX_BURST || cburst > MAX_BURST) {
            throw new IllegalArgumentException("bursts must be 0.." + MAX_BURST + " B, got " + burst + " and " + cburst);
        }
        this.rate = rate;
        this.ceil = ceil;
        this.burst = burst;
        this.cburst = cburst;
    }

    /** Rate and ceil in bytes per second, with default bursts: 10 ms of the rate plus one large frame. */
    public static Shaping of(long rateBytesPerSecond, long ceilBytesPerSecond) {
        return new Shaping(rateBytesPerSecond, ceilBytesPerSecond, defaultBurst(rateBytesPerSecond),
                defaultBurst(ceilBytesPerSecond));
    }

    public static Shaping of(long rateBytesPerSecond, long ceilBytesPerSecond, long burstBytes, long cburstBytes) {
        return new Shaping(rateBytesPerSecond, ceilBytesPerSecond, burstBytes, cburstBytes);
    }

    /** The default burst of a bucket at {@code bytesPerSecond}: 10 ms of it plus a large frame, at most {@link #MAX_BURST}. */
    public static long defaultBurst(long bytesPerSecond) {
        return Math.min(MAX_BURST, bytesPerSecond / 100 + 1600);
    }

    public long rate() {
        return rate;
    }

    public long ceil() {
        return ceil;
    }

    public long burst() {
        return burst;
    }

    public long cburst() {
        return cburst;
    }

    @Override
    public String toString() {
        return "rate " + rate + " B/s, ceil " + ceil + " B/s, burst " + burst + " B, cburst " + cburst + " B";
    }
}
