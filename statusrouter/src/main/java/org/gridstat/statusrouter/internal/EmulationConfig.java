package org.gridstat.statusrouter.internal;

/** Settings of a link's user-space emulation; all zero means a plain link. */
final class EmulationConfig {
    static final EmulationConfig NONE = new EmulationConfig(0, 0, 0, 0, 1);

    final long delayNanos;
    final double loss;
    final long meanTimeBetweenFaultsNanos;
    final long faultDurationNanos;
    final long seed;

    EmulationConfig(long delayNanos, double loss, long meanTimeBetweenFaultsNanos, long faultDurationNanos, long seed) {
        if (!(loss >= 0 && loss <= 1)) {
            throw new IllegalArgumentException("loss must be a probability in 0..1, got " + loss);
        }
        if ((meanTimeBetweenFaultsNanos == 0) != (faultDurationNanos == 0)) {
            throw new IllegalArgumentException("faultEvery and faultFor go together");
        }
        this.delayNanos = delayNanos;
        this.loss = loss;
        this.meanTimeBetweenFaultsNanos = meanTimeBetweenFaultsNanos;
        this.faultDurationNanos = faultDurationNanos;
        this.seed = seed;
    }

    boolean active() {
        return delayNanos > 0 || loss > 0 || meanTimeBetweenFaultsNanos > 0;
    }
}
