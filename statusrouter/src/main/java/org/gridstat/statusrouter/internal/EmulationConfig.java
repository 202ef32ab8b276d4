package org.gridstat.statusrouter.internal;

import org.gridstat.core.sched.LinkSpec;

/**
 * Settings of a link's user-space emulation; all zero means a plain link. An emulated link also
 * serializes at its capacity behind a queue of {@code queueBytes}.
 */
final class EmulationConfig {
    /**
     * The emulated link's queue ahead of its wire, unless the {@code queue} key says otherwise; at
     * least one maximum frame.
     */
    static final long DEFAULT_QUEUE_BYTES = 256 << 10;
    static final EmulationConfig NONE = new EmulationConfig(0, 0, 0, 0, 1);

    final long delayNanos;
    final double loss;
    final long meanTimeBetweenFaultsNanos;
    final long faultDurationNanos;
    final long seed;
    final long queueBytes;

    EmulationConfig(long delayNanos, double loss, long meanTimeBetweenFaultsNanos, long faultDurationNanos, long seed) {
        this(delayNanos, loss, meanTimeBetweenFaultsNanos, faultDurationNanos, seed, DEFAULT_QUEUE_BYTES);
    }

    EmulationConfig(long delayNanos, double loss, long meanTimeBetweenFaultsNanos, long faultDurationNanos, long seed,
                    long queueBytes) {
        if (queueBytes < LinkSpec.MAX_FRAME_BYTES) {
            throw new IllegalArgumentException("queue " + queueBytes + " B is smaller than one maximum frame ("
                    + LinkSpec.MAX_FRAME_BYTES + " B): frames that size would all be lost");
        }
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
        this.queueBytes = queueBytes;
    }

    boolean active() {
        return delayNanos > 0 || loss > 0 || meanTimeBetweenFaultsNanos > 0;
    }
}
