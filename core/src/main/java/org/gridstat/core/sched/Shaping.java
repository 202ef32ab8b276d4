package org.gridstat.core.sched;

/**
 * HTB parameters of one node of the link hierarchy (a class or a flow): the assured rate it may
 * always use, the ceiling it may borrow up to, and the bursts (in bytes) it may send at once.
 */
public final class Shaping {
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
        if (burst < 0 || cburst < 0) {
            throw new IllegalArgumentException("bursts must not be negative");
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

    static long defaultBurst(long bytesPerSecond) {
        return bytesPerSecond / 100 + 1600;
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
