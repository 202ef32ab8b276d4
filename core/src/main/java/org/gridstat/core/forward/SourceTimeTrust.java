package org.gridstat.core.forward;

/**
 * How far a router trusts the source timestamps of the events it receives, measured against its
 * own epoch clock. Timestamps come from the network: a publisher's clock may be wrong, a frame may
 * be forged. A sample stamped further ahead than {@code maxAheadNanos}, or older than
 * {@code maxAgeNanos}, is dropped and counted under its own reason before it reaches a rate filter
 * or a queue, so it can neither move the filter's grid nor sit in a buffer it cannot use.
 *
 * @param maxAheadNanos how far ahead of the router's clock a source time may be (clock skew between
 *                      hosts); positive: with none, a publisher whose clock is a nanosecond ahead of
 *                      the router's would have every frame refused
 * @param maxAgeNanos   how old a source time may be: longer than any deadline an event could still
 *                      meet (class C's bound is 1 s), so only samples of no use to anyone are refused
 */
public record SourceTimeTrust(long maxAheadNanos, long maxAgeNanos) {
    /** 2 s ahead, 10 s old. */
    public static final SourceTimeTrust DEFAULT = new SourceTimeTrust(2_000_000_000L, 10_000_000_000L);

    public SourceTimeTrust {
        if (maxAheadNanos <= 0 || maxAgeNanos <= 0) {
            throw new IllegalArgumentException("the source-time window must be positive: ahead " + maxAheadNanos
                    + " ns, age " + maxAgeNanos + " ns");
        }
    }
}
