package org.gridstat.rpc.transport;

/**
 * How one message is sent over a 2WoPS connection: over {@code paths} disjoint paths (the
 * subscription admitted with that many; excess copies are discarded at the receiver), as
 * {@code copies} temporal copies {@code spacingNanos} apart, and resent up to {@code retries}
 * times when no acknowledgement comes within the timeout: twice the delivery guarantee of the
 * send, the latency bound plus the spread of its copies.
 */
public record Redundancy(int paths, int copies, long spacingNanos, int retries) {
    public static final int MAX_PATHS = 8;
    public static final int MAX_COPIES = 16;
    public static final int MAX_RETRIES = 255;
    /** Spacing travels in units of this on the wire. */
    public static final long SPACING_UNIT_NANOS = 100_000;
    public static final long MAX_SPACING_NANOS = 0xFFFFL * SPACING_UNIT_NANOS;

    /** One copy over one path, no retry: maybe-once. */
    public static final Redundancy NONE = new Redundancy(1, 1, 0, 0);

    public Redundancy {
        if (paths < 1 || paths > MAX_PATHS) {
            throw new IllegalArgumentException("paths must be 1.." + MAX_PATHS + ", got " + paths);
        }
        if (copies < 1 || copies > MAX_COPIES) {
            throw new IllegalArgumentException("copies must be 1.." + MAX_COPIES + ", got " + copies);
        }
        if (retries < 0 || retries > MAX_RETRIES) {
            throw new IllegalArgumentException("retries must be 0.." + MAX_RETRIES + ", got " + retries);
        }
        if (spacingNanos < 0 || spacingNanos > MAX_SPACING_NANOS || spacingNanos % SPACING_UNIT_NANOS != 0) {
            throw new IllegalArgumentException("spacing must be a multiple of 100 us up to " + MAX_SPACING_NANOS / 1_000_000
                    + " ms, got " + spacingNanos + " ns");
        }
        if (copies > 1 && spacingNanos == 0) {
            throw new IllegalArgumentException("temporal copies need a spacing above 0");
        }
    }

    /** The same with {@code n} copies {@code spacingNanos} apart. */
    public Redundancy withCopies(int n, long spacing) {
        return new Redundancy(paths, n, spacing, retries);
    }

    public Redundancy withPaths(int k) {
        return new Redundancy(k, copies, spacingNanos, retries);
    }

    public Redundancy withRetries(int r) {
        return new Redundancy(paths, copies, spacingNanos, r);
    }

    /** When the last copy has arrived at the latest, from the first copy's sending: the bound plus the copies' spread. */
    public long guaranteeNanos(long latencyBoundNanos) {
        return latencyBoundNanos + (copies - 1) * spacingNanos;
    }

    /** How long a sender waits for the acknowledgement of one try: twice its delivery guarantee. */
    public long timeoutNanos(long latencyBoundNanos) {
        return 2 * guaranteeNanos(latencyBoundNanos);
    }
}
