package org.gridstat.core.sched;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;
import org.gridstat.core.stats.CounterArray;
import org.gridstat.core.wire.WireFormat;

/**
 * The live counters of one queue (a flow, a class or the control queue). The data-path thread
 * writes; any thread may take a {@link #snapshot}. Rates are folded into moving averages at
 * estimator ticks, which the data-path thread drives.
 */
final class QueueCounters {
    private static final int ARRIVALS = QueueCounter.ARRIVALS.ordinal();
    private static final int ARRIVAL_BYTES = QueueCounter.ARRIVAL_BYTES.ordinal();
    private static final int DEPARTURES = QueueCounter.DEPARTURES.ordinal();
    private static final int DEPARTURE_BYTES = QueueCounter.DEPARTURE_BYTES.ordinal();
    private static final int OVERFLOWS = QueueCounter.OVERFLOW_DROPS.ordinal();
    private static final int DEADLINE_MISSES = QueueCounter.DEADLINE_MISSES.ordinal();
    private static final int REMOVED = QueueCounter.REMOVED_DROPS.ordinal();
    private static final int BACKLOG = QueueCounter.BACKLOG.ordinal();
    private static final int ARRIVAL_RATE_BITS = QueueCounter.ARRIVAL_RATE.ordinal();
    private static final int DEPARTURE_RATE_BITS = QueueCounter.DEPARTURE_RATE.ordinal();
    private static final int DEMAND_RATE_BITS = QueueCounter.DEMAND_RATE.ordinal();
    private static final int LEAST_SLACK = QueueCounter.LEAST_SLACK.ordinal();
    private static final int FIELDS = QueueCounter.values().length;

    /** Hop latencies above 10 s are recorded as 10 s. */
    private static final long MAX_LATENCY = 10_000_000_000L;
    private static final long LATENCY_RESOLUTION = 1_000L;

    private final CounterArray c = new CounterArray(FIELDS);
    /*
     * Flat histograms keep recording a few array writes. Resolution 1 µs over 1 µs..10 s at two
     * significant digits: ~17 KB of counts each, ~50 KB per queue with the recorder's pair and the
     * reader's total; memory grows with the flows a link carries, not with traffic. (Packed
     * histograms are a tenth of that but slowed enqueue+dequeue below 5 M/s.)
     */
    private final SingleWriterRecorder latency = new SingleWriterRecorder(LATENCY_RESOLUTION, MAX_LATENCY, 2);
    /** Reader side: the life-long histogram the interval histograms fold into. */
    private final Histogram latencyTotal = new Histogram(LATENCY_RESOLUTION, MAX_LATENCY, 2);
    private Histogram latencyInterval;
    /**
     * Reader side: the latencies since the last snapshot that ended a period, made by the first
     * one (until then the period is the queue's life, so the life-long histogram serves): only a
     * reader that reports by period (a router's flow reports) pays for a third histogram.
     */
    private Histogram latencyPeriod;

    // Writer-only estimator state.
    private long lastArrivalBytes;
    private long lastDepartureBytes;
    private double arrivalRate;
    private double departureRate;
    private long lastArrivals;
    /** Demand on the wire: arrival bytes and each event's IP and UDP headers, as the broker reserves. */
    private double demandRate;
    /** The demand is given by {@link #measured}: see {@link #demandMeasuredElsewhere()}. */
    private boolean demandMeasured;
    private double lastDemandRate;
    /** This period's arrivals with a source time, and the earliest and latest of those times. */
    private long stampedArrivals;
    private long firstStamp = Long.MAX_VALUE;
    private long lastStamp = Long.MIN_VALUE;
    /** This period's least slack of an arriving event that can still make it, ns; {@link Long#MAX_VALUE}: none yet. */
    private long periodLeastSlack = Long.MAX_VALUE;
    /** Whether an event with a deadline arrived this period, in time or not. */
    private boolean periodDeadlines;

    QueueCounters() {
        c.set(LEAST_SLACK, Long.MAX_VALUE);
    }

    long get(QueueCounter counter) {
        return c.get(counter.ordinal());
    }

    void arrival(int bytes) {
        c.increment(ARRIVALS);
        c.add(ARRIVAL_BYTES, bytes);
    }

    /** An arrival of an event its source stamped {@code sourceTime} (epoch nanoseconds). */
    void arrival(int bytes, long sourceTime) {
        arrival(bytes);
        stampedArrivals++;
        firstStamp = Math.min(firstStamp, sourceTime);
        lastStamp = Math.max(lastStamp, sourceTime);
    }

    /**
     * An arriving event's slack: the time left before it can no longer meet its end-to-end
     * deadline; one that cannot any more (0 or less) only says the flow has deadlines (writer thread).
     */
    void slack(long nanos) {
        periodDeadlines = true;
        if (nanos > 0 && nanos < periodLeastSlack) {
            periodLeastSlack = nanos;
        }
    }

    /**
     * The least slack of the last estimator period in which events that could still meet their
     * deadline arrived, ns; from any thread. A period without arrivals, or whose events with
     * deadlines all came too late, keeps the last, so a slow flow's figure does not come and go;
     * one whose arrivals had no deadline makes it {@link Long#MAX_VALUE}, as before any.
     */
    long leastSlack() {
        return c.get(LEAST_SLACK);
    }

    void enqueued() {
        c.increment(BACKLOG);
    }

    void overflow() {
        c.increment(OVERFLOWS);
    }

    void deadlineMiss() {
        c.increment(DEADLINE_MISSES);
        c.add(BACKLOG, -1);
    }

    void departure(int bytes, long latencyNanos) {
        c.increment(DEPARTURES);
        c.add(DEPARTURE_BYTES, bytes);
        c.add(BACKLOG, -1);
        latency.recordValue(Math.min(MAX_LATENCY, Math.max(0, latencyNanos)));
    }

    /** Events that joined the backlog without arriving (their flow moved here from another class). */
    void adopted(int events) {
        c.add(BACKLOG, events);
    }

    /** Events that left the backlog for another queue (their flow moved to another class). */
    void discarded(int events) {
        c.add(BACKLOG, -events);
    }

    /** Events dropped with their flow when it was torn down. */
    void removed(int events) {
        c.add(REMOVED, events);
        c.add(BACKLOG, -events);
    }

    void tick(double elapsedSeconds, double weight) {
        long arrived = c.get(ARRIVAL_BYTES);
        long departed = c.get(DEPARTURE_BYTES);
        long events = c.get(ARRIVALS);
        arrivalRate = weight * ((arrived - lastArrivalBytes) / elapsedSeconds) + (1 - weight) * arrivalRate;
        if (!demandMeasured) { // else the kernel's counters give it; see measured()
            estimateDemand(events - lastArrivals, arrived - lastArrivalBytes, elapsedSeconds, weight);
        }
        stampedArrivals = 0;
        firstStamp = Long.MAX_VALUE;
        lastStamp = Long.MIN_VALUE;
        if (periodLeastSlack != Long.MAX_VALUE) {
            c.set(LEAST_SLACK, periodLeastSlack);
        } else if (events > lastArrivals && !periodDeadlines) {
            c.set(LEAST_SLACK, Long.MAX_VALUE);
        }
        periodLeastSlack = Long.MAX_VALUE;
        periodDeadlines = false;
        lastArrivals = events;
        departureRate = weight * ((departed - lastDepartureBytes) / elapsedSeconds) + (1 - weight) * departureRate;
        lastArrivalBytes = arrived;
        lastDepartureBytes = departed;
        c.set(ARRIVAL_RATE_BITS, Double.doubleToRawLongBits(arrivalRate));
        c.set(DEPARTURE_RATE_BITS, Double.doubleToRawLongBits(departureRate));
        c.set(DEMAND_RATE_BITS, Double.doubleToRawLongBits(demand()));
    }

    /** The period's demand from its {@code n} arrivals of {@code bytes}. */
    private void estimateDemand(long n, long bytes, double elapsedSeconds, double weight) {
        double wireBytes = bytes + (double) n * WireFormat.DATAGRAM_OVERHEAD;
        lastDemandRate = wireBytes / elapsedSeconds;
        // A periodic source's samples cross a period's edge early or late with network jitter, so a
        // period counts one sample more (or less) than the source sent in it: read alone, one more
        // is a step of demand, and congestion control would take it from a victim for nothing.
        // The samples' own times say the rate they were taken at; the lower of the two stands, so a
        // jittered edge does not raise the demand, a genuine step does (its samples are closer
        // together), and a source's timestamps can only lower its own estimate, never raise it.
        // Only when the samples span about a period: a source clock that stepped, or a backlog of old
        // samples arriving at once, spans more, and the arrivals are then what the link carries.
        long span = lastStamp - firstStamp;
        if (stampedArrivals >= 2 && stampedArrivals == n && span > 0 && span <= 2 * elapsedSeconds * 1e9) {
            double taken = (stampedArrivals - 1) * 1e9 / span * (wireBytes / n);
            lastDemandRate = Math.min(lastDemandRate, taken);
        }
        demandRate = weight * lastDemandRate + (1 - weight) * demandRate;
    }

    /**
     * From now on the demand is the rate measured elsewhere each period (a kernel-shaped link's
     * class counters) and given by {@link #measured}, not this queue's arrivals.
     */
    void demandMeasuredElsewhere() {
        demandMeasured = true;
    }

    /** One period's demand measured elsewhere, bytes per second on the wire (writer thread). */
    void measured(double wireBytesPerSecond, double weight) {
        lastDemandRate = wireBytesPerSecond;
        demandRate = weight * lastDemandRate + (1 - weight) * demandRate;
        c.set(DEMAND_RATE_BITS, Double.doubleToRawLongBits(demand()));
    }

    /**
     * Demand for congestion control, on the wire (each event's frame and IP and UDP headers, as the
     * broker reserves): its average, or the last period's if higher (writer thread).
     */
    double demand() {
        return Math.max(demandRate, lastDemandRate);
    }

    /** The mean size of the events that arrived, on the wire; 0 before any (writer thread). */
    double meanWireBytes() {
        long n = c.get(ARRIVALS);
        return n == 0 ? 0 : (double) c.get(ARRIVAL_BYTES) / n + WireFormat.DATAGRAM_OVERHEAD;
    }

    synchronized QueueStatistics snapshot() {
        return snapshot(false);
    }

    /**
     * The counters now (any thread). The latency percentiles are over the queue's life; the period's
     * p99 over the latencies since the last snapshot that ended a period (or since the queue was
     * made), 0 if no event left in it. With {@code endPeriod} this snapshot ends the period: the next
     * one starts afresh.
     */
    synchronized QueueStatistics snapshot(boolean endPeriod) {
        latencyInterval = latency.getIntervalHistogram(latencyInterval);
        latencyTotal.add(latencyInterval);
        Histogram period = latencyTotal;
        if (latencyPeriod != null) {
            latencyPeriod.add(latencyInterval);
            period = latencyPeriod;
        }
        long periodP99 = period.getTotalCount() == 0 ? 0 : period.getValueAtPercentile(99);
        if (endPeriod) {
            if (latencyPeriod == null) {
                latencyPeriod = new Histogram(LATENCY_RESOLUTION, MAX_LATENCY, 2);
            } else {
                latencyPeriod.reset();
            }
        }
        return new QueueStatistics(c.get(ARRIVALS), c.get(ARRIVAL_BYTES), c.get(DEPARTURES), c.get(DEPARTURE_BYTES),
                c.get(OVERFLOWS), c.get(DEADLINE_MISSES), c.get(REMOVED), c.get(BACKLOG),
                Double.longBitsToDouble(c.get(ARRIVAL_RATE_BITS)), Double.longBitsToDouble(c.get(DEPARTURE_RATE_BITS)),
                Double.longBitsToDouble(c.get(DEMAND_RATE_BITS)), latencyTotal.getValueAtPercentile(50),
                latencyTotal.getValueAtPercentile(99), latencyTotal.getMaxValue(), periodP99);
    }
}
