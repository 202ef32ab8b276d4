package org.gridstat.core.sched;

import org.gridstat.core.time.Saturating;

/**
 * An exact token bucket. Tokens are counted in units of 1e-9 byte, so a rate in bytes per second
 * adds a whole number of them each nanosecond and no rounding accumulates: departure times match
 * the token bucket formula to the nanosecond. The bucket refills up to its depth; an event may
 * leave while the bucket is not in debt and is charged whole when it leaves, which may put the
 * bucket in debt. The static methods are the arithmetic, shared with {@link HtbNode}'s pair of
 * buckets. Links pace with it, and gateways shape their flows at the source with it.
 */
public final class TokenBucket {
    /**
     * Debt is clamped here (4e9 bytes): a node charged without limit (a class whose flows' rates
     * exceed its own) recovers in bounded time, and the arithmetic stays within a long.
     */
    private static final long MAX_DEBT = -4_000_000_000_000_000_000L;
    private static final long NANO = 1_000_000_000L;

    private final long rate;
    private final long depth;
    private long tokens;
    private long last;

    /** A full bucket. */
    public TokenBucket(long bytesPerSecond, long depthBytes, long now) {
        rate = checkRate(bytesPerSecond);
        depth = depth(depthBytes);
        tokens = depth;
        last = now;
    }

    /** Refills for the time since the last call; time never runs backwards here. */
    public void advance(long now) {
        if (now > last) {
            tokens = refill(tokens, depth, Saturating.subtract(now, last), rate);
            last = now;
        }
    }

    /** Charges a departure; call {@link #advance} to its time first. */
    public void charge(int bytes) {
        tokens = charge(tokens, bytes);
    }

    public boolean inDebt() {
        return tokens < 0;
    }

    /** When the debt is paid if nothing more is charged: {@link Long#MAX_VALUE} if never. */
    public long readyTime() {
        return readyTime(tokens, last, rate);
    }

    static long checkRate(long bytesPerSecond) {
        if (bytesPerSecond < 0) {
            throw new IllegalArgumentException("negative rate " + bytesPerSecond + " B/s");
        }
        return bytesPerSecond;
    }

    /** A depth in bytes, at most {@link Shaping#MAX_BURST}, in token units. */
    static long depth(long bytes) {
        if (bytes < 0 || bytes > Shaping.MAX_BURST) {
            throw new IllegalArgumentException("bucket depth must be 0.." + Shaping.MAX_BURST + " B, got " + bytes);
        }
        return bytes * NANO;
    }

    /** {@code tokens} after {@code dt > 0} ns at {@code rate}, at most {@code depth}. */
    static long refill(long tokens, long depth, long dt, long rate) {
        long room = depth - tokens;
        if (room <= 0) {
            return tokens;
        }
        // A refill that overflows a long fills any bucket; no division on this path.
        long added = dt * rate;
        if (Math.multiplyHigh(dt, rate) != 0 || added < 0 || added >= room) {
            return depth;
        }
        return tokens + added;
    }

    static long charge(long tokens, int bytes) {
        return Math.max(MAX_DEBT, tokens - bytes * NANO);
    }

    /** When {@code tokens} at {@code last} are out of debt: {@code last} if they are, MAX_VALUE if never. */
    static long readyTime(long tokens, long last, long rate) {
        if (tokens >= 0) {
            return last;
        }
        if (rate == 0) {
            return Long.MAX_VALUE;
        }
        return Saturating.add(last, (-tokens - 1) / rate + 1);
    }
}
