package org.gridstat.htb;

/**
 * One HTB class of qdisc {@code 1:} as the kernel reports it. Counters run from the class's creation.
 *
 * @param minor the class is {@code 1:minor}
 * @param parentMinor its parent {@code 1:parentMinor}, or 0 if it is directly under the qdisc
 * @param leaf whether it has no children (only leaves queue packets)
 * @param rateBytesPerSecond its guaranteed rate
 * @param ceilBytesPerSecond its ceiling
 * @param prio its priority (applied only while it is a leaf)
 * @param bytes bytes sent, link-layer headers included
 * @param packets packets sent
 * @param drops packets dropped at its leaf queue
 * @param overlimits times a packet of the class had to wait for tokens
 * @param backlogBytes bytes queued now
 * @param queuedPackets packets queued now
 * @param tokens the transmission time it may still spend at its rate, in psched ticks (64 ns); negative: in debt
 * @param ctokens the same at its ceiling
 * @param lends packets sent on its own rate's tokens (for an inner class: lent to a descendant)
 * @param borrows packets sent on tokens borrowed from an ancestor
 */
public record ClassStatistics(int minor, int parentMinor, boolean leaf, long rateBytesPerSecond,
        long ceilBytesPerSecond, int prio, long bytes, long packets, long drops, long overlimits, long backlogBytes,
        long queuedPackets, long tokens, long ctokens, long lends, long borrows) {
}
