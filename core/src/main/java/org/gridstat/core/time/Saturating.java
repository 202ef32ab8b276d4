package org.gridstat.core.time;

/**
 * Arithmetic on instants that clamps at the ends of {@code long} instead of wrapping: times come
 * from the network, and a deadline near {@link Long#MIN_VALUE} less a budget must stay in the
 * past, not wrap to "never expires".
 */
public final class Saturating {
    private Saturating() {
    }

    public static long add(long a, long b) {
        long r = a + b;
        // Overflow only if both operands have the same sign and the result's sign differs.
        if (((a ^ r) & (b ^ r)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return r;
    }

    public static long subtract(long a, long b) {
        long r = a - b;
        if (((a ^ b) & (a ^ r)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return r;
    }

    /** Milliseconds (a configured duration) in nanoseconds, clamped at the ends of {@code long}. */
    public static long millisToNanos(long millis) {
        if (millis > Long.MAX_VALUE / 1_000_000L) {
            return Long.MAX_VALUE;
        }
        if (millis < Long.MIN_VALUE / 1_000_000L) {
            return Long.MIN_VALUE;
        }
        return millis * 1_000_000L;
    }
}
