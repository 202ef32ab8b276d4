package org.gridstat.rpc.client;

import java.util.EnumMap;
import java.util.Map;

/**
 * What a series of calls came to, as the Ratatoskr evaluation reports it: early successes (answered
 * on the first try), retries per call, and the mean, standard deviation and maximum call time of
 * the calls that ended with an answer (success, a failed condition, a refusal). Not thread-safe.
 */
public final class CallStatistics {
    private final EnumMap<CallOutcome, Long> outcomes = new EnumMap<>(CallOutcome.class);
    private long calls;
    private long early;
    private long retries;
    private long answered;
    private double sum;
    private double sumSquares;
    private long max;

    public void add(CallResult r) {
        calls++;
        outcomes.merge(r.outcome(), 1L, Long::sum);
        if (r.early()) {
            early++;
        }
        retries += Math.max(0, r.attempts() - 1);
        if (r.code() != null) {
            answered++;
            double t = r.elapsedNanos();
            sum += t;
            sumSquares += t * t;
            max = Math.max(max, r.elapsedNanos());
        }
    }

    public long calls() {
        return calls;
    }

    public long outcome(CallOutcome o) {
        return outcomes.getOrDefault(o, 0L);
    }

    public Map<CallOutcome, Long> outcomes() {
        return Map.copyOf(outcomes);
    }

    /** Calls answered on their first try, over all calls. */
    public double earlySuccessRate() {
        return calls == 0 ? 0 : early / (double) calls;
    }

    public double retriesPerCall() {
        return calls == 0 ? 0 : retries / (double) calls;
    }

    /** Calls that ended with an answer. */
    public long answered() {
        return answered;
    }

    public double meanMillis() {
        return answered == 0 ? 0 : sum / answered / 1e6;
    }

    public double stdDevMillis() {
        if (answered < 2) {
            return 0;
        }
        double mean = sum / answered;
        return Math.sqrt(Math.max(0, (sumSquares - answered * mean * mean) / (answered - 1))) / 1e6;
    }

    public double maxMillis() {
        return max / 1e6;
    }
}
