package org.gridstat.gui.model;

/**
 * What a flow's router last reported of it ({@code GET /flows}, {@code statistics}): counts since
 * the flow was installed, rates as the router estimates them, and its congestion state.
 */
public record FlowStatistics(long reportedAtMillis, long eventsSent, long bytesSent, long overflowDrops,
                             long deadlineMisses, long backlog, long arrivalBytesPerSecond, long departureBytesPerSecond,
                             long demandBytesPerSecond, String state, long assuredInForceBytesPerSecond,
                             long shortfallBytesPerSecond, double heldRateHz) {
}
