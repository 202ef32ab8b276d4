package org.gridstat.gui.model;

/**
 * What a flow's router last reported of it ({@code GET /flows}, {@code statistics}): counts since
 * the flow was installed, rates as the router estimates them, and its congestion state.
 *
 * @param latencyP99Micros the 99th percentile of the flow's queueing at its router (one hop) over
 *                         the router's last report period, µs (0: nothing sent in it); {@code null}
 *                         from a broker that does not give it
 * @param reassignments    the router's congestion-control decisions that moved the flow's assured
 *                         rate since its data path started; {@code null} from a broker that does
 *                         not give it
 */
public record FlowStatistics(long reportedAtMillis, long eventsSent, long bytesSent, long overflowDrops,
                             long deadlineMisses, long backlog, long arrivalBytesPerSecond, long departureBytesPerSecond,
                             long demandBytesPerSecond, String state, long assuredInForceBytesPerSecond,
                             long shortfallBytesPerSecond, double heldRateHz, Long latencyP99Micros, Long reassignments) {
}
