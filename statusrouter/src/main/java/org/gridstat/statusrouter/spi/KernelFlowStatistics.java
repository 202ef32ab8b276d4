package org.gridstat.statusrouter.spi;

/**
 * A flow's counters as the kernel keeps them, totals since its class was made: bytes and packets
 * sent, packets dropped, and what is queued now. Bytes are counted as the broker reserves them
 * (the frame with its IP and UDP headers): the link-layer header the kernel also counts is taken off.
 */
public record KernelFlowStatistics(long flowId, long bytes, long packets, long drops, long backlogBytes,
                                   long queuedPackets) {
}
