package org.gridstat.client;

/**
 * Delivery counts and latency of one variable's stream: written by the receive thread alone, read
 * from any thread.
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

    /** The counts of several streams together. */
    static SubscriberStatistics total(Iterable<StreamCounters> streams) {
        long delivered = 0;
        long duplicates = 0;
        long gaps = 0;
        long tooLate = 0;
        long min = Long.MAX_VALUE;
        long max = 0;
        long sum = 0;
        long count = 0;
        for (StreamCounters c : streams) {
            delivered += c.delivered;
            duplicates += c.duplicates;
            gaps += c.gaps;
            tooLate += c.tooLate;
            min = Math.min(min, c.latencyMin);
            max = Math.max(max, c.latencyMax);
            sum += c.latencySum;
            count += c.latencyCount;
        }
        return new SubscriberStatistics(delivered, duplicates, gaps, tooLate, min == Long.MAX_VALUE ? 0 : min,
                count == 0 ? 0 : sum / count, max);
    }

    SubscriberStatistics snapshot() {
        long min = latencyMin;
        long count = latencyCount;
        return new SubscriberStatistics(delivered, duplicates, gaps, tooLate, min == Long.MAX_VALUE ? 0 : min,
                count == 0 ? 0 : latencySum / count, latencyMax);
    }
}
