package org.gridstat.sim.metrics;

/**
 * One subscription over one report interval {@code [fromNanos, toNanos)}.
 *
 * @param offered        samples published in the interval that the subscription's rate asks for
 * @param delivered      of them, first copies delivered (by arrival time in the interval)
 * @param late           deliveries after the subscription's deadline
 * @param overflowDrops  copies the routers on its paths refused for a full flow queue
 * @param deadlineMisses copies the routers on its paths dropped once they could no longer be in time
 * @param copiesLost     copies of its variable lost elsewhere on its paths: on a link (loss,
 *                       outage, cut, a full packet queue), or refused by a router (down, no flow
 *                       for it, a source time it does not trust); shared with every subscription
 *                       whose paths cross the same place
 * @param latencyP50Nanos latencies of the deliveries; 0 when none
 * @param latencyMeanNanos their mean; 0 when none. An interval row's latencies are exact; the whole run's
 *                       summary row is to 3 significant digits (longer than a minute counts as a minute)
 * @param offeredOnTime  of the samples offered in the interval, those delivered by the deadline, whenever
 *                       they arrived: a sample taken just before the interval ends and delivered in time
 *                       in the next counts here, where {@code delivered} counts it in the next row
 */
public record FlowInterval(String subscription, long fromNanos, long toNanos, long offered, long delivered, long late,
                           long overflowDrops, long deadlineMisses, long copiesLost, long latencyP50Nanos,
                           long latencyP99Nanos, long latencyMaxNanos, long latencyMeanNanos, long offeredOnTime) {
    /** The same row with {@code offeredOnTime} as counted by the end of the run. */
    public FlowInterval withOfferedOnTime(long n) {
        return new FlowInterval(subscription, fromNanos, toNanos, offered, delivered, late, overflowDrops,
                deadlineMisses, copiesLost, latencyP50Nanos, latencyP99Nanos, latencyMaxNanos, latencyMeanNanos, n);
    }
}
