package org.gridstat.core.forward;

import java.util.Arrays;
import java.util.Objects;
import org.gridstat.core.sched.FlowSpec;

/**
 * A flow as the control plane installs it in a router: which variable, over which out-link, with
 * which scheduling parameters, the subscription intervals routed over the link (for the rate
 * filter; none means every sample), the publisher's interval (its half is the filter's jitter
 * tolerance), the budget of the path after this hop: an event's hop deadline is its end-to-end
 * deadline less that budget, and the least delay of the path from this hop's out-link on
 * (propagation and transmission on that link and each later one, no queueing): an event whose
 * end-to-end deadline comes before now plus that delay can no longer make it. Versions order the updates of one flow.
 */
public final class FlowEntry {
    /** In {@link #upstreamHops()}: the flow's events come from the publisher; this router is the first hop. */
    public static final int PUBLISHER = -1;

    private final long version;
    private final long variableId;
    private final int outLink;
    private final FlowSpec spec;
    private final long[] intervalsNanos;
    private final long publisherIntervalNanos;
    private final long downstreamBudgetNanos;
    private final long minRestDelayNanos;
    private final int[] upstreamHops;

    /** A flow whose rest of path has no known least delay: 0, so no event is given up on before its end-to-end deadline. */
    public FlowEntry(long version, long variableId, int outLink, FlowSpec spec, long[] intervalsNanos,
                     long publisherIntervalNanos, long downstreamBudgetNanos) {
        this(version, variableId, outLink, spec, intervalsNanos, publisherIntervalNanos, downstreamBudgetNanos, 0);
    }

    public FlowEntry(long version, long variableId, int outLink, FlowSpec spec, long[] intervalsNanos,
                     long publisherIntervalNanos, long downstreamBudgetNanos, long minRestDelayNanos) {
        this(version, variableId, outLink, spec, intervalsNanos, publisherIntervalNanos, downstreamBudgetNanos,
                minRestDelayNanos, new int[0]);
    }

    /**
     * @param upstreamHops where the flow's events come from, as the caller numbers the hops before
     *                     this router ({@link #PUBLISHER}: the publisher); none: not known, and
     *                     congestion notices for the flow go no further upstream
     */
    public FlowEntry(long version, long variableId, int outLink, FlowSpec spec, long[] intervalsNanos,
                     long publisherIntervalNanos, long downstreamBudgetNanos, long minRestDelayNanos, int[] upstreamHops) {
        Objects.requireNonNull(spec, "flow spec");
        if (version < 1) {
            throw new IllegalArgumentException("flow " + spec.flowId() + ": version must be positive");
        }
        if (variableId == 0) {
            throw new IllegalArgumentException("flow " + spec.flowId() + ": variable id 0 is reserved");
        }
        if (outLink < 0) {
            throw new IllegalArgumentException("flow " + spec.flowId() + ": out-link index must not be negative");
        }
        for (long i : intervalsNanos) {
            if (i <= 0) {
                throw new IllegalArgumentException("flow " + spec.flowId() + ": intervals must be positive");
            }
        }
        if (publisherIntervalNanos < 0 || downstreamBudgetNanos < 0) {
            throw new IllegalArgumentException("flow " + spec.flowId() + ": publisher interval and budget must not be negative");
        }
        if (minRestDelayNanos < 0) {
            throw new IllegalArgumentException("flow " + spec.flowId() + ": least rest-of-path delay must not be negative");
        }
        this.version = version;
        this.variableId = variableId;
        this.outLink = outLink;
        this.spec = spec;
        this.intervalsNanos = intervalsNanos.clone();
        this.publisherIntervalNanos = publisherIntervalNanos;
        this.downstreamBudgetNanos = downstreamBudgetNanos;
        this.minRestDelayNanos = minRestDelayNanos;
        for (int h : upstreamHops) {
            if (h < PUBLISHER) {
                throw new IllegalArgumentException("flow " + spec.flowId() + ": upstream hop " + h + " is not a hop number");
            }
        }
        this.upstreamHops = upstreamHops.clone();
    }

    public long flowId() {
        return spec.flowId();
    }

    public long version() {
        return version;
    }

    public long variableId() {
        return variableId;
    }

    public int outLink() {
        return outLink;
    }

    public FlowSpec spec() {
        return spec;
    }

    public long[] intervalsNanos() {
        return intervalsNanos.clone();
    }

    public long publisherIntervalNanos() {
        return publisherIntervalNanos;
    }

    public long downstreamBudgetNanos() {
        return downstreamBudgetNanos;
    }

    /** The least delay of the path after this hop, ns: propagation and transmission, no queueing. */
    public long minRestDelayNanos() {
        return minRestDelayNanos;
    }

    /** The hops the flow's events come from ({@link #PUBLISHER} among them: the publisher); empty: not known. */
    public int[] upstreamHops() {
        return upstreamHops.clone();
    }

    boolean sameFilter(FlowEntry o) {
        return Arrays.equals(intervalsNanos, o.intervalsNanos) && publisherIntervalNanos == o.publisherIntervalNanos;
    }

    @Override
    public String toString() {
        return spec + " v" + version + ", variable " + Long.toUnsignedString(variableId) + " -> link " + outLink
                + ", intervals " + Arrays.toString(intervalsNanos) + " ns, budget " + downstreamBudgetNanos + " ns, rest delay "
                + minRestDelayNanos + " ns";
    }
}
