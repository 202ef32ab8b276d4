package org.gridstat.sim.whatif;

import java.util.List;
import org.gridstat.sim.metrics.FlowInterval;

/**
 * One subscription's figures over the simulated time. Deadlines are judged only on the samples
 * whose deadline fell within the run, so a sample still on its way at the end is not called
 * missed: {@code judged} of the {@code offered} samples, of which {@code onTime} arrived by it.
 *
 * @param offered       samples its rate asked for
 * @param delivered     of them, delivered (late or not)
 * @param judged        samples whose deadline passed before the run ended
 * @param onTime        of those, delivered by the deadline
 * @param overflowDrops copies the routers on its paths refused for a full flow queue
 * @param deadlineDrops copies the routers dropped once they could no longer be in time
 * @param copiesLost    copies lost on its links or refused by routers on its paths
 * @param worstP99Nanos the highest one-second 99th percentile of its latency
 * @param maxLatencyNanos its highest latency
 */
public record FlowFigures(long offered, long delivered, long judged, long onTime, long overflowDrops, long deadlineDrops,
                          long copiesLost, long worstP99Nanos, long maxLatencyNanos) {
    /** Samples judged and not delivered by their deadline (dropped, lost or late). */
    public long missed() {
        return judged - onTime;
    }

    public double missRatio() {
        return judged == 0 ? 0 : (double) missed() / judged;
    }

    public double overflowRatio() {
        return offered == 0 ? 0 : (double) overflowDrops / offered;
    }

    /**
     * The subscription's rows that end by {@code endNanos}, deadlines judged on those that also end
     * by {@code judgedUntilNanos}.
     */
    static FlowFigures of(List<FlowInterval> rows, String label, long endNanos, long judgedUntilNanos) {
        long offered = 0;
        long delivered = 0;
        long judged = 0;
        long onTime = 0;
        long overflow = 0;
        long deadline = 0;
        long lost = 0;
        long p99 = 0;
        long max = 0;
        for (FlowInterval r : rows) {
            if (!r.subscription().equals(label) || r.toNanos() > endNanos) {
                continue;
            }
            offered += r.offered();
            delivered += r.delivered();
            overflow += r.overflowDrops();
            deadline += r.deadlineMisses();
            lost += r.copiesLost();
            p99 = Math.max(p99, r.latencyP99Nanos());
            max = Math.max(max, r.latencyMaxNanos());
            if (r.toNanos() <= judgedUntilNanos) {
                judged += r.offered();
                onTime += Math.min(r.offered(), r.offeredOnTime());
            }
        }
        return new FlowFigures(offered, delivered, judged, onTime, overflow, deadline, lost, p99, max);
    }
}
