package org.gridstat.node.demo;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.gridstat.client.ReceivedEvent;
import org.gridstat.client.StatusEventListener;

/**
 * Records the source-to-delivery latency of every event, in microseconds, and the sequence gaps.
 * The subscriber thread records; the reporting thread takes interval snapshots.
 */
final class LatencyMonitor implements StatusEventListener {
    /** Latencies above a minute are recorded as a minute. */
    private static final long MAX_MICROS = 60_000_000L;

    private final long variableId;
    private final Recorder recorder = new Recorder(MAX_MICROS, 3);
    private final Histogram total = new Histogram(MAX_MICROS, 3);
    private Histogram interval;
    private volatile long received;
    private volatile long gaps;
    private long nextSequence = -1;
    private volatile long measureFrom = Long.MAX_VALUE;

    LatencyMonitor(long variableId) {
        this.variableId = variableId;
    }

    @Override
    public void onEvent(ReceivedEvent event) {
        if (event.variableId() != variableId) {
            return;
        }
        long seq = event.sequence();
        if (event.sourceTimeNanos() < measureFrom) {
            nextSequence = seq + 1; // warm-up: track the sequence, record nothing
            return;
        }
        long micros = Math.max(0, Math.min(MAX_MICROS, event.latencyNanos() / 1000));
        recorder.recordValue(micros);
        if (nextSequence >= 0 && seq > nextSequence) {
            gaps += seq - nextSequence;
        }
        nextSequence = Math.max(nextSequence, seq + 1);
        received++;
    }

    /** Records only samples taken at or after {@code sourceTimeNanos}; earlier ones are warm-up. */
    void measureFrom(long sourceTimeNanos) {
        measureFrom = sourceTimeNanos;
    }

    /** The histogram since the previous call; it is also added to the run's total. */
    Histogram takeInterval() {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
        return interval;
    }

    Histogram total() {
        return total;
    }

    long received() {
        return received;
    }

    long gaps() {
        return gaps;
    }
}
