package org.gridstat.core.filter;

import java.util.Arrays;
import org.gridstat.core.time.Saturating;

/**
 * Decides which samples of one variable travel one out-link. The link carries the union of its
 * downstream subscribers' needs, so a variable crosses each link at the highest rate any
 * downstream subscriber needs, and variables filtered to the same rate keep the same timestamps.
 *
 * <ul>
 *   <li><b>Nothing to thin out.</b> If an interval routed over the link is at or below the
 *       publisher's own (within the 1 ns by which two roundings of one rate can differ: 60 Hz is
 *       16,666,667 ns), every sample passes, however jittery its stamp, late copies included.
 *       Thinning a stream to its own rate could only lose samples whose stamps wander past half a
 *       period.
 *   <li><b>Thinning.</b> Otherwise, for each interval {@code I}, a sample serves the point of
 *       {@code I}'s {@link SampleGrid} nearest to it within the tolerance (half the publisher's
 *       period), or if none is that near, the latest point before it: it stands in for a sample lost
 *       upstream. Points are more than twice the tolerance apart here, so at most one is that near,
 *       and the rule is {@code floor(t + tolerance)}. A sample goes if it serves a point not served
 *       yet, and then serves every interval it is due for.
 *   <li><b>Late copies.</b> A sample whose point is at most one interval behind the last one
 *       served (a reordering, a copy from a slower path) serves nothing.
 *   <li><b>Clock steps.</b> A point more than one interval behind what was served means the
 *       publisher's clock stepped back, or that what was served was stamped ahead: the sample is
 *       forwarded and the interval starts over from its point, so the stream passes again at once,
 *       however far the step. If the next point served after that is the very point served before
 *       it, the "step" was a stray late copy: the old state comes back and that point is not served
 *       twice. A single frame stamped less than about two intervals ahead is taken at its word: it
 *       serves its point, and the on-time sample for that point is held back.
 *   <li>Stamps are untrusted input: arithmetic saturates at the ends of {@code long}, so an
 *       extreme stamp counts as at most one step and leaves no state behind that blocks others.
 * </ul>
 *
 * <p>One instance per (variable, out-link), used by the data-path thread only; no allocation per sample.
 */
public final class RateFilter {
    /** Two roundings to whole nanoseconds of one rate's interval differ by at most this. */
    private static final long ROUNDING_NANOS = 1;
    private static final long NONE = Long.MIN_VALUE;

    private final SampleGrid[] grids;
    private final long[] intervals;
    /** Per interval: the latest point served, or {@link #NONE}. */
    private final long[] served;
    /** Per interval: the point served before the last clock step, until the next point is served, or {@link #NONE}. */
    private final long[] servedBeforeStep;
    private final long tolerance;
    private final boolean passesAll;

    /**
     * @param intervalsNanos           the intervals of the subscriptions routed over the link
     * @param publisherIntervalNanos   the publisher's own interval (0 if unknown: no jitter
     *                                 tolerance, and every interval is thinned)
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
        this.intervals = sorted;
        this.served = new long[sorted.length];
        this.servedBeforeStep = new long[sorted.length];
        Arrays.fill(served, NONE);
        Arrays.fill(servedBeforeStep, NONE);
        this.tolerance = publisherIntervalNanos / 2;
        this.passesAll = publisherIntervalNanos > 0 && sorted[0] <= publisherIntervalNanos + ROUNDING_NANOS;
    }

    /**
     * The filter of a congestion hold: the samples of {@code rateHz}'s grid, as the routers' holds
     * and a held publisher pick them alike.
     */
    public static RateFilter ofRate(int rateHz, long publisherIntervalNanos) {
        return new RateFilter(new long[] {SampleGrid.ofRate(rateHz).intervalNanos()}, publisherIntervalNanos);
    }

    /** Whether the sample taken at {@code sourceTimeNanos} goes over the link. */
    public boolean accept(long sourceTimeNanos) {
        if (passesAll) {
            return true;
        }
        long reach = Saturating.add(sourceTimeNanos, tolerance);
        boolean pass = false;
        for (int i = 0; i < grids.length; i++) {
            pass |= serves(i, grids[i].floor(reach));
        }
        return pass;
    }

    /** Whether a sample for {@code point} of interval {@code i} is wanted; records it if so. */
    private boolean serves(int i, long point) {
        long last = served[i];
        if (point > last) {
            long before = servedBeforeStep[i];
            servedBeforeStep[i] = NONE;
            if (point == before) {
                served[i] = before; // the "step" was a stray late copy: this point was served already
                return false;
            }
            served[i] = point;
            return true;
        }
        if (point < Saturating.subtract(last, intervals[i])) {
            servedBeforeStep[i] = Math.max(servedBeforeStep[i], last);
            served[i] = point;
            return true;
        }
        return false;
    }

    /** The intervals this filter serves, shortest first. */
    public long[] intervalsNanos() {
        return intervals.clone();
    }
}
