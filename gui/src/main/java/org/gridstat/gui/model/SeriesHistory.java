package org.gridstat.gui.model;

/**
 * The recent history of one figure: (time, value) points in a ring of fixed capacity, of which
 * those within the window (5 minutes) are shown. Written by the feed thread, copied by the UI.
 */
public final class SeriesHistory {
    /** What a chart shows: the last five minutes. */
    public static final long WINDOW_MILLIS = 5 * 60_000L;
    private final long[] times;
    private final double[] values;
    private int next;
    private int size;

    public SeriesHistory(int capacity) {
        times = new long[capacity];
        values = new double[capacity];
    }

    public synchronized void add(long timeMillis, double value) {
        if (size > 0 && timeMillis < times[(next - 1 + times.length) % times.length]) {
            return; // an older report arriving late: the chart moves forward only
        }
        times[next] = timeMillis;
        values[next] = value;
        next = (next + 1) % times.length;
        size = Math.min(size + 1, times.length);
    }

    /** Forgets every point. */
    public synchronized void clear() {
        next = 0;
        size = 0;
    }

    /** The points since {@code fromMillis}, oldest first. */
    public synchronized Points since(long fromMillis) {
        int first = (next - size + times.length) % times.length;
        int skip = 0;
        while (skip < size && times[(first + skip) % times.length] < fromMillis) {
            skip++;
        }
        int n = size - skip;
        long[] t = new long[n];
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            int at = (first + skip + i) % times.length;
            t[i] = times[at];
            v[i] = values[at];
        }
        return new Points(t, v);
    }

    public synchronized long lastTime() {
        return size == 0 ? Long.MIN_VALUE : times[(next - 1 + times.length) % times.length];
    }

    /** A copy of a series' points, oldest first. */
    public record Points(long[] timesMillis, double[] values) {
        public int size() {
            return timesMillis.length;
        }
    }
}
