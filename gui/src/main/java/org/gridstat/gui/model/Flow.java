package org.gridstat.gui.model;

import java.util.List;

/**
 * A flow installed in a router ({@code GET /flows}): one variable's stream on one out-link, its
 * class, its assured rate (AR), minimum rate (MR, {@code null} from a broker that does not give it)
 * and ceiling (CR), and its router's latest statistics ({@code null} before the first report).
 */
public record Flow(String router, long flowId, long version, long variableId, String link, String serviceClass,
                   long assuredBytesPerSecond, Long minimumBytesPerSecond, long ceilingBytesPerSecond,
                   List<Long> intervalsNanos, FlowStatistics statistics) {
    public Flow {
        intervalsNanos = List.copyOf(intervalsNanos);
    }

    /** A flow as a broker without MR gives it. */
    public Flow(String router, long flowId, long version, long variableId, String link, String serviceClass,
                long assuredBytesPerSecond, long ceilingBytesPerSecond, List<Long> intervalsNanos,
                FlowStatistics statistics) {
        this(router, flowId, version, variableId, link, serviceClass, assuredBytesPerSecond, null, ceilingBytesPerSecond,
                intervalsNanos, statistics);
    }

    public FlowKey key() {
        return new FlowKey(router, flowId);
    }

    /** The flow with other statistics: what a new report of it changes. */
    public Flow withStatistics(FlowStatistics s) {
        return new Flow(router, flowId, version, variableId, link, serviceClass, assuredBytesPerSecond,
                minimumBytesPerSecond, ceilingBytesPerSecond, intervalsNanos, s);
    }
}
