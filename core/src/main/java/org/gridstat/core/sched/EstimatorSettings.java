package org.gridstat.core.sched;

/**
 * How arrival and departure rates are estimated: every {@code periodNanos} the rate over the period
 * is folded into an exponentially weighted moving average, {@code ewma = w·sample + (1 − w)·ewma}.
 * A weight near 1 follows recent periods closely (what congestion control wants); near 0 smooths.
 */
public final class EstimatorSettings {
    public static final EstimatorSettings DEFAULT = new EstimatorSettings(1_000_000_000L, 0.5);

    private final long periodNanos;
    private final double weight;

    public EstimatorSettings(long periodNanos, double weight) {
        if (periodNanos < 10_000_000L) {
            throw new IllegalArgumentException("estimator period must be at least 10 ms, got " + periodNanos + " ns");
        }
        if (!(weight > 0 && weight <= 1)) {
            throw new IllegalArgumentException("estimator weight must be in (0, 1], got " + weight);
        }
        this.periodNanos = periodNanos;
        this.weight = weight;
    }

    public long periodNanos() {
        return periodNanos;
    }

    public double weight() {
        return weight;
    }
}
