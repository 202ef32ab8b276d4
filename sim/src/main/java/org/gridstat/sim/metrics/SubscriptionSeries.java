package org.gridstat.sim.metrics;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.gridstat.core.filter.RateFilter;
import org.gridstat.sim.traffic.Subscriber;

/**
 * One subscription's measurements: what its rate asks of the publisher (core's own
 * {@link RateFilter} at the subscription's interval decides which samples count as offered),
 * what arrives, how late, and the routers' drops on its flows, cut into report intervals.
 */
public final class SubscriptionSeries implements Subscriber.Delivery {
    private static final long HOUR = 3_600_000_000_000L;

    private final String label;
    private final long latencyBound;
    private final RateFilter wants;
    private final List<FlowInterval> rows = new ArrayList<>();
    private final Histogram latency = new Histogram(HOUR, 3);
    private final Histogram total = new Histogram(HOUR, 3);
    private long offered;
    private long delivered;
    private long late;
    private long totalOffered;
    private long totalDelivered;
    private long totalLate;
    private long totalOverflow;
    private long totalMisses;
    private long lastOverflow;
    private long lastMisses;

    public SubscriptionSeries(String label, long intervalNanos, long publisherIntervalNanos, long latencyBoundNanos) {
        this.label = label;
        this.latencyBound = latencyBoundNanos;
        this.wants = new RateFilter(new long[] {intervalNanos}, publisherIntervalNanos);
    }

    public String label() {
        return label;
    }

    /** The publisher sent a sample with this source time. */
    public void published(long sourceTimeNanos) {
        if (wants.accept(sourceTimeNanos)) {
            offered++;
            totalOffered++;
        }
    }

    @Override
    public void delivered(long sequence, long sourceTimeNanos, long latencyNanos, boolean isLate) {
        delivered++;
        totalDelivered++;
        long l = Math.max(0, Math.min(latencyNanos, HOUR));
        latency.recordValue(l);
        total.recordValue(l);
        if (isLate) {
            late++;
            totalLate++;
        }
    }

    @Override
    public long latencyBoundNanos() {
        return latencyBound;
    }

    /**
     * Closes the interval {@code [from, to)}.
     *
     * @param overflowDrops  the routers' overflow drops on its flows so far (a running total)
     * @param deadlineMisses the same for deadline misses
     */
    public void close(long from, long to, long overflowDrops, long deadlineMisses) {
        long overflow = Math.max(0, overflowDrops - lastOverflow);
        long misses = Math.max(0, deadlineMisses - lastMisses);
        lastOverflow = overflowDrops;
        lastMisses = deadlineMisses;
        totalOverflow += overflow;
        totalMisses += misses;
        boolean any = latency.getTotalCount() > 0;
        rows.add(new FlowInterval(label, from, to, offered, delivered, late, overflow, misses,
                any ? latency.getValueAtPercentile(50) : 0, any ? latency.getValueAtPercentile(99) : 0,
                any ? latency.getMaxValue() : 0, any ? Math.round(latency.getMean()) : 0));
        offered = 0;
        delivered = 0;
        late = 0;
        latency.reset();
    }

    public List<FlowInterval> rows() {
        return List.copyOf(rows);
    }

    /** The whole run in one row. */
    public FlowInterval summary(long from, long to) {
        boolean any = total.getTotalCount() > 0;
        return new FlowInterval(label, from, to, totalOffered, totalDelivered, totalLate, totalOverflow, totalMisses,
                any ? total.getValueAtPercentile(50) : 0, any ? total.getValueAtPercentile(99) : 0,
                any ? total.getMaxValue() : 0, any ? Math.round(total.getMean()) : 0);
    }

    /** Mean latency of every delivery of the run. */
    public double meanLatencyNanos() {
        return total.getTotalCount() > 0 ? total.getMean() : 0;
    }
}
