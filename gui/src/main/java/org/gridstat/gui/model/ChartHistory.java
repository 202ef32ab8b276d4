package org.gridstat.gui.model;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The last minutes of each flow's and each link's throughput, drops and backlog, and each flow's
 * latency p99, as the routers' reports tell them: a point per new report (a report time not seen
 * before), so polling faster than the routers report adds nothing. Drops are per second between
 * two reports: overflow drops plus deadline misses. The latency is the p99 of the flow's queueing
 * at its router over that report's period, in µs; a report of a period in which the flow sent
 * nothing (p99 0: none measured) adds no latency point, and links have none (the routers report
 * latency per flow). Series of flows and links gone for longer than the window are forgotten, and
 * at most {@link #MAX_SERIES} are kept.
 */
public final class ChartHistory {
    /**
     * Traces kept at most: each holds four series of {@link #CAPACITY} points (38 KB), so the
     * history stays under 80 MB however many flows the network carries. Beyond it, a new element is
     * not charted until older ones are forgotten.
     */
    public static final int MAX_SERIES = 2_000;
    /** Points per series: one report a second over the window, with room for faster reports. */
    static final int CAPACITY = 600;
    /**
     * A report older than an element's last by more than this is no late report but its router's
     * clock set back (it ran ahead, or sent one bad time): the element is charted afresh from it,
     * where its new points, all older than the last, would be dropped until its clock caught up.
     */
    static final long CLOCK_SET_BACK_MILLIS = 10_000;

    /** One chartable element's series. */
    public static final class Trace {
        public final SeriesHistory throughput = new SeriesHistory(CAPACITY);
        public final SeriesHistory drops = new SeriesHistory(CAPACITY);
        public final SeriesHistory backlog = new SeriesHistory(CAPACITY);
        /** A flow's latency p99 at its router per report, µs; a link's stays empty. */
        public final SeriesHistory latency = new SeriesHistory(CAPACITY);
        long lastReportMillis = Long.MIN_VALUE;
        long lastBytes;
        long lastDrops;
        volatile long touchedMillis;

        /** Whether a report of {@code atMillis} adds nothing: not newer than the last, charting it afresh if the router's clock was set back. */
        private boolean old(long atMillis) {
            if (atMillis > lastReportMillis) {
                return false;
            }
            if (lastReportMillis - atMillis <= CLOCK_SET_BACK_MILLIS) {
                return true;
            }
            throughput.clear();
            drops.clear();
            backlog.clear();
            latency.clear();
            lastReportMillis = Long.MIN_VALUE;
            return false;
        }
    }

    private final Map<String, Trace> traces = new ConcurrentHashMap<>();

    /** The key of a flow's trace. */
    public static String flowKey(FlowKey k) {
        return "flow " + k;
    }

    /** The key of a link's trace: a router's out-link (a next router or a delivery link). */
    public static String linkKey(String router, String link) {
        return "link " + router + "->" + link;
    }

    public Trace trace(String key) {
        return traces.get(key);
    }

    void flow(Flow f, long nowMillis) {
        FlowStatistics s = f.statistics();
        if (s == null) {
            return;
        }
        Trace t = traceFor(flowKey(f.key()), nowMillis);
        if (t == null) {
            return;
        }
        synchronized (t) {
            if (t.old(s.reportedAtMillis())) {
                return;
            }
            long drops = s.overflowDrops() + s.deadlineMisses();
            t.throughput.add(s.reportedAtMillis(), s.departureBytesPerSecond());
            t.backlog.add(s.reportedAtMillis(), s.backlog());
            if (s.latencyP99Micros() != null && s.latencyP99Micros() > 0) {
                t.latency.add(s.reportedAtMillis(), s.latencyP99Micros());
            }
            if (t.lastReportMillis != Long.MIN_VALUE) {
                double seconds = (s.reportedAtMillis() - t.lastReportMillis) / 1000.0;
                t.drops.add(s.reportedAtMillis(), Math.max(0, drops - t.lastDrops) / seconds);
            }
            t.lastReportMillis = s.reportedAtMillis();
            t.lastDrops = drops;
        }
    }

    void counters(List<RouterCounters> routers, long nowMillis) {
        for (RouterCounters r : routers) {
            if (r.reportedAt() == null) {
                continue;
            }
            long at;
            try {
                at = Instant.parse(r.reportedAt()).toEpochMilli();
            } catch (DateTimeParseException e) {
                continue;
            }
            r.links().forEach((link, c) -> {
                Trace t = traceFor(linkKey(r.router(), link), nowMillis);
                if (t == null) {
                    return;
                }
                synchronized (t) {
                    if (t.old(at)) {
                        return;
                    }
                    long drops = c.overflowDrops() + c.deadlineMisses();
                    t.backlog.add(at, c.backlog());
                    if (t.lastReportMillis != Long.MIN_VALUE) {
                        double seconds = (at - t.lastReportMillis) / 1000.0;
                        t.throughput.add(at, Math.max(0, c.bytesSent() - t.lastBytes) / seconds);
                        t.drops.add(at, Math.max(0, drops - t.lastDrops) / seconds);
                    }
                    t.lastReportMillis = at;
                    t.lastBytes = c.bytesSent();
                    t.lastDrops = drops;
                }
            });
        }
    }

    private Trace traceFor(String key, long nowMillis) {
        Trace t = traces.get(key);
        if (t == null) {
            if (traces.size() >= MAX_SERIES) {
                forgetOlderThan(nowMillis - SeriesHistory.WINDOW_MILLIS);
                if (traces.size() >= MAX_SERIES) {
                    return null;
                }
            }
            t = traces.computeIfAbsent(key, k -> new Trace());
        }
        t.touchedMillis = nowMillis;
        return t;
    }

    /** Forgets the traces of elements last seen before {@code millis}. */
    void forgetOlderThan(long millis) {
        for (Iterator<Trace> i = traces.values().iterator(); i.hasNext(); ) {
            if (i.next().touchedMillis < millis) {
                i.remove();
            }
        }
    }
}
