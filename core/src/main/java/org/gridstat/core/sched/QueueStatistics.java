package org.gridstat.core.sched;

/**
 * A queue's counters at one instant (a flow's, or a class's summed over its flows). Rates are
 * the estimator's moving averages, in bytes per second; latencies are the time from arrival at this
 * hop to departure, in nanoseconds, over the queue's life, but for {@link #periodLatencyP99Nanos()}.
 */
public final class QueueStatistics {
    private final long arrivals;
    private final long arrivalBytes;
    private final long departures;
    private final long departureBytes;
    private final long overflowDrops;
    private final long deadlineMisses;
    private final long removedDrops;
    private final long backlog;
    private final double arrivalRate;
    private final double departureRate;
    private final long latencyP50;
    private final long latencyP99;
    private final double demandRate;
    private final long latencyMax;
    private final long periodLatencyP99;

    QueueStatistics(long arrivals, long arrivalBytes, long departures, long departureBytes, long overflowDrops,
                    long deadlineMisses, long removedDrops, long backlog, double arrivalRate, double departureRate,
                    double demandRate, long latencyP50, long latencyP99, long latencyMax, long periodLatencyP99) {
        this.periodLatencyP99 = periodLatencyP99;
        this.demandRate = demandRate;
        this.arrivals = arrivals;
        this.arrivalBytes = arrivalBytes;
        this.departures = departures;
        this.departureBytes = departureBytes;
        this.overflowDrops = overflowDrops;
        this.deadlineMisses = deadlineMisses;
        this.removedDrops = removedDrops;
        this.backlog = backlog;
        this.arrivalRate = arrivalRate;
        this.departureRate = departureRate;
        this.latencyP50 = latencyP50;
        this.latencyP99 = latencyP99;
        this.latencyMax = latencyMax;
    }

    /** Events offered to the queue, accepted or not. */
    public long arrivals() {
        return arrivals;
    }

    public long arrivalBytes() {
        return arrivalBytes;
    }

    /** Events sent on the link. */
    public long departures() {
        return departures;
    }

    public long departureBytes() {
        return departureBytes;
    }

    /** Events refused because the buffer was full. */
    public long overflowDrops() {
        return overflowDrops;
    }

    /** Events dropped at dequeue because their hop deadline had passed. */
    public long deadlineMisses() {
        return deadlineMisses;
    }

    /** Events waiting now. */
    /** Events dropped because their flow was torn down while they waited. */
    public long removedDrops() {
        return removedDrops;
    }

    public long backlog() {
        return backlog;
    }

    /** Moving average of the offered load, bytes per second. */
    public double arrivalRate() {
        return arrivalRate;
    }

    /** Moving average of the sent load, bytes per second. */
    public double departureRate() {
        return departureRate;
    }

    /**
     * Demand on the wire as congestion control sees it, bytes per second: arrivals with their IP
     * and UDP headers, the moving average or the last period's rate if higher.
     */
    public double demandRate() {
        return demandRate;
    }

    public long latencyP50Nanos() {
        return latencyP50;
    }

    public long latencyP99Nanos() {
        return latencyP99;
    }

    public long latencyMaxNanos() {
        return latencyMax;
    }

    /**
     * The 99th percentile of the time from arrival at this hop to departure, nanoseconds, over the
     * period: the events that left since the last statistics that ended a period
     * ({@link LinkScheduler#statistics(boolean)}), or since the queue was made if none did; 0 when
     * none left in it. Resolution 1 µs, 2 significant digits (the value given is the top of the
     * percentile's bucket); latencies above 10 s count as 10 s.
     */
    public long periodLatencyP99Nanos() {
        return periodLatencyP99;
    }

    @Override
    public String toString() {
        return String.format("arrivals %d, departures %d, overflow %d, deadline misses %d, removed with flow %d, "
                        + "backlog %d, rate in %.0f B/s out %.0f B/s, hop latency p50 %d ns p99 %d ns max %d ns", arrivals,
                departures, overflowDrops, deadlineMisses, removedDrops, backlog, arrivalRate, departureRate, latencyP50,
                latencyP99, latencyMax);
    }
}
