package org.gridstat.client;

/**
 * Delivery counts and latency of one stream (a variable, or all of a subscriber's): written by the
 * receive thread alone, read from any thread.
 */
final class StreamCounters {
    private volatile long delivered;
    private volatile long duplicates;
    private volatile long gaps;
    private volatile long tooLate;
    private volatile long latencyMin = Long.MAX_VALUE;
    private volatile long latencyMax;
    private volatile long latencySum;
    private volatile long latencyCount;

    void delivered(long latencyNanos) {
        latencySum += latencyNanos;
        latencyCount++;
        latencyMin = Math.min(latencyMin, latencyNanos);
        latencyMax = Math.max(latencyMax, latencyNanos);
    }

    void listenerTook() {
        delivered++;
    }

    void duplicate() {
        duplicates++;
    }

    void tooLate() {
        tooLate++;
    }

    void gaps(long more) {
        gaps += more;
    }

    SubscriberStatistics snapshot() {
        long min = latencyMin;
        long count = latencyCount;
        return new SubscriberStatistics(delivered, duplicates, gaps, tooLate, min == Long.MAX_VALUE ? 0 : min,
                count == 0 ? 0 : latencySum / count, latencyMax);
    }
}
