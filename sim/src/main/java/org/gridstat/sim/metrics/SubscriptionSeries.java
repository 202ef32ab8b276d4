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
    private static final long MINUTE = 60_000_000_000L;

    private final String label;
    private final long latencyBound;
    private final RateFilter wants;
    private final List<FlowInterval> rows = new ArrayList<>();
    /** The interval's latencies, exactly: its row's percentiles are read from them sorted. */
    private long[] window = new long[64];
    private int windowSize;
    /** Most latencies a row keeps exactly; a row of more is kept to 3 significant digits. */
    private static final int WINDOW_MAX = 1 << 16;
    private Histogram spilled;
    private long spilledMax;
    private long totalMax;
    /** The whole run's, to 3 significant digits from 1 µs to a minute (longer ones count as a minute). */
    private final Histogram total = new Histogram(1_000, MINUTE, 3);
    private long offered;
    private long delivered;
    private long late;
    private long totalOffered;
    private long totalDelivered;
    private long totalLate;
    private long totalOverflow;
    private long totalMisses;
    /** Samples offered and not yet delivered, each with the row it was offered in; at most {@value #WANTED_MEMORY}. */
    private final java.util.Map<Long, Integer> wanted = new java.util.HashMap<>();
    /** Per row, of the samples offered in it, those delivered by the deadline so far (they may arrive in a later row). */
    private long[] offeredOnTime = new long[64];
    private final java.util.ArrayDeque<Long> wantedOrder = new java.util.ArrayDeque<>();
    private static final int WANTED_MEMORY = 65_536;
    private long unasked;
    private long lastOverflow;
    private long lastLost;
    private long openedAt;
    private long totalLost;
    private long lastMisses;
    /** When checking: every sequence delivered, and deliveries counted twice. */
    private java.util.Set<Long> seen;
    private long repeated;

    public SubscriptionSeries(String label, long intervalNanos, long publisherIntervalNanos, long latencyBoundNanos) {
        this.label = label;
        this.latencyBound = latencyBoundNanos;
        this.wants = new RateFilter(new long[] {intervalNanos}, publisherIntervalNanos);
    }


    /** Records every delivery, so a run can be checked for repeats. */
    public void check() {
        seen = new java.util.HashSet<>();
    }

    /** Samples delivered more than once (checked runs only). */
    public long repeated() {
        return repeated;
    }

    /** When the subscription was admitted: its first row starts there. */
    public long openedAt() {
        return openedAt;
    }

    public String label() {
        return label;
    }

    /** The publisher sent sample {@code sequence} with this source time. */
    public void published(long sequence, long sourceTimeNanos) {
        if (wants.accept(sourceTimeNanos)) {
            offered++;
            totalOffered++;
            wanted.put(sequence, rows.size()); // the row open now, closed next
            wantedOrder.add(sequence);
            if (wantedOrder.size() > WANTED_MEMORY) {
                wanted.remove(wantedOrder.poll()); // long given up: a delivery now would not count
            }
        }
    }

    /** Samples delivered that the subscription's rate did not ask for (another's, on the same link): not counted. */
    public long unasked() {
        return unasked;
    }

    @Override
    public void delivered(long sequence, long sourceTimeNanos, long latencyNanos, boolean isLate) {
        if (seen != null) {
            if (!seen.add(sequence)) {
                repeated++;
            }
        }
        Integer offeredIn = wanted.remove(sequence);
        if (offeredIn == null) {
            // The link carries the variable at the highest rate any subscriber behind it asks: this
            // sample is another's, and the subscriber's own rate filter would leave it.
            unasked++;
            return;
        }
        delivered++;
        totalDelivered++;
        long l = Math.max(0, latencyNanos);
        if (windowSize == window.length) {
            if (window.length == WINDOW_MAX) {
                spill();
            } else {
                window = java.util.Arrays.copyOf(window, 2 * window.length);
            }
        }
        window[windowSize++] = l;
        total.recordValue(Math.min(l, MINUTE));
        totalMax = Math.max(totalMax, l);
        if (isLate) {
            late++;
            totalLate++;
        } else {
            if (offeredIn >= offeredOnTime.length) {
                offeredOnTime = java.util.Arrays.copyOf(offeredOnTime, Math.max(2 * offeredOnTime.length, offeredIn + 1));
            }
            offeredOnTime[offeredIn]++;
        }
    }

    @Override
    public long latencyBoundNanos() {
        return latencyBound;
    }

    /**
     * Starts the running totals of the routers' drops from where they stand when the subscription
     * is admitted: what they counted before is not its.
     */
    public void startFrom(long at, long overflowDrops, long deadlineMisses, long copiesLost) {
        openedAt = at;
        lastOverflow = overflowDrops;
        lastMisses = deadlineMisses;
        lastLost = copiesLost;
    }

    /**
     * Closes the interval {@code [from, to)}.
     *
     * @param overflowDrops  the routers' overflow drops on its flows so far (a running total)
     * @param deadlineMisses the same for deadline misses
     * @param copiesLost     the same for copies lost on links and refused by routers on its paths
     */
    public void close(long from, long to, long overflowDrops, long deadlineMisses, long copiesLost) {
        long overflow = Math.max(0, overflowDrops - lastOverflow);
        long misses = Math.max(0, deadlineMisses - lastMisses);
        long lost = Math.max(0, copiesLost - lastLost);
        lastOverflow = overflowDrops;
        lastMisses = deadlineMisses;
        lastLost = copiesLost;
        totalOverflow += overflow;
        totalMisses += misses;
        totalLost += lost;
        if (spilled != null) {
            spill(); // a row of more deliveries than the window keeps: to 3 significant digits
            boolean any = spilled.getTotalCount() > 0;
            rows.add(new FlowInterval(label, from, to, offered, delivered, late, overflow, misses, lost,
                    any ? spilled.getValueAtPercentile(50) : 0, any ? spilled.getValueAtPercentile(99) : 0, spilledMax,
                    any ? Math.round(spilled.getMean()) : 0, 0));
            spilled.reset();
            spilled = null;
            spilledMax = 0;
        } else {
            java.util.Arrays.sort(window, 0, windowSize);
            long sum = 0;
            for (int i = 0; i < windowSize; i++) {
                sum += window[i];
            }
            boolean any = windowSize > 0;
            rows.add(new FlowInterval(label, from, to, offered, delivered, late, overflow, misses, lost,
                    percentile(50), percentile(99), any ? window[windowSize - 1] : 0,
                    any ? Math.round((double) sum / windowSize) : 0, 0));
        }
        offered = 0;
        delivered = 0;
        late = 0;
        windowSize = 0;
    }

    /** Moves the window's latencies into the row's histogram, kept from now on for the rest of the row. */
    private void spill() {
        if (spilled == null) {
            spilled = new Histogram(1_000, MINUTE, 3);
        }
        for (int i = 0; i < windowSize; i++) {
            spilled.recordValue(Math.min(window[i], MINUTE));
            spilledMax = Math.max(spilledMax, window[i]);
        }
        windowSize = 0;
    }

    /** The interval's value at {@code p} percent: the least that at least {@code p} % of its values do not exceed. */
    private long percentile(double p) {
        if (windowSize == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100 * windowSize);
        return window[Math.max(0, rank - 1)];
    }

    /** The rows closed so far, each with the samples offered in it that were delivered in time by now. */
    public List<FlowInterval> rows() {
        List<FlowInterval> out = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            out.add(rows.get(i).withOfferedOnTime(i < offeredOnTime.length ? offeredOnTime[i] : 0));
        }
        return List.copyOf(out);
    }

    /** The whole run in one row. */
    public FlowInterval summary(long from, long to) {
        boolean any = total.getTotalCount() > 0;
        return new FlowInterval(label, from, to, totalOffered, totalDelivered, totalLate, totalOverflow, totalMisses,
                totalLost,
                any ? total.getValueAtPercentile(50) : 0, any ? total.getValueAtPercentile(99) : 0,
                totalMax, any ? Math.round(total.getMean()) : 0, totalDelivered - totalLate);
    }

    /** Mean latency of every delivery of the run. */
    public double meanLatencyNanos() {
        return total.getTotalCount() > 0 ? total.getMean() : 0;
    }
}
