package org.gridstat.core.filter;

import java.util.Arrays;

/**
 * Decides which samples of one variable travel one out-link. The link carries the union of its
 * downstream subscribers' needs: for each interval {@code I} routed over it, the first sample at or
 * after each point of {@code I}'s {@link SampleGrid}, where "at" allows half the publisher's period
 * of jitter. A variable thus crosses each link at the highest rate any downstream subscriber needs,
 * and variables filtered to the same rate keep the same timestamps.
 *
 * <p>One instance per (variable, out-link), used by the data-path thread only; no allocation per sample.
 */
public final class RateFilter {
    private final SampleGrid[] grids;
    private final long[] lastServed;
    private final long tolerance;

    /**
     * @param intervalsNanos           the intervals of the subscriptions routed over the link
     * @param publisherIntervalNanos   the publisher's own interval (0 if unknown: no jitter tolerance)
     */
    public RateFilter(long[] intervalsNanos, long publisherIntervalNanos) {
        if (intervalsNanos.length == 0) {
            throw new IllegalArgumentException("a rate filter needs at least one interval");
        }
        if (publisherIntervalNanos < 0) {
            throw new IllegalArgumentException("publisher interval must not be negative");
        }
        long[] sorted = Arrays.stream(intervalsNanos).distinct().sorted().toArray();
        this.grids = new SampleGrid[sorted.length];
        for (int i = 0; i < sorted.length; i++) {
            grids[i] = SampleGrid.ofInterval(sorted[i]);
        }
        this.lastServed = new long[sorted.length];
        Arrays.fill(lastServed, Long.MIN_VALUE);
        this.tolerance = publisherIntervalNanos / 2;
    }

    /**
     * Whether the sample taken at {@code sourceTimeNanos} goes over the link. A forwarded sample
     * serves every interval it is due for; a sample older than what an interval already served
     * (a late copy, a reordering) serves none.
     */
    public boolean accept(long sourceTimeNanos) {
        long reach = sourceTimeNanos + tolerance;
        boolean pass = false;
        for (int i = 0; i < grids.length; i++) {
            long point = grids[i].floor(reach);
            if (point > lastServed[i]) {
                lastServed[i] = point;
                pass = true;
            }
        }
        return pass;
    }

    /** The intervals this filter serves, shortest first. */
    public long[] intervalsNanos() {
        long[] out = new long[grids.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = grids[i].intervalNanos();
        }
        return out;
    }
}
