package org.gridstat.core.congestion;

import org.gridstat.core.filter.RateFilter;
import org.gridstat.core.filter.SampleGrid;
import org.gridstat.core.model.ServiceClass;

/**
 * A publication held at its source to the rate its first router advised: of the samples it takes,
 * it sends those a rate filter of that rate keeps ({@link RateFilter}), the very ones the routers'
 * holds would let through, so holding at the source only saves the bandwidth the network would
 * have spent on samples dropped downstream. An HRT publication is never held. Not thread-safe:
 * its publication's lock guards it.
 */
public final class SourceHold {
    private final ServiceClass serviceClass;
    private long publisherIntervalNanos;
    private RateFilter filter;
    private int rateHz;
    private long held;

    /**
     * @param publisherIntervalNanos the publication's own interval (its half is the filter's jitter
     *                               tolerance), 0 if it has none
     */
    public SourceHold(ServiceClass serviceClass, long publisherIntervalNanos) {
        this.serviceClass = serviceClass;
        this.publisherIntervalNanos = Math.max(0, publisherIntervalNanos);
    }

    /**
     * Holds the publication to {@code rateHz} samples per second (0: no limit).
     *
     * @return whether the hold changed (never for an HRT publication)
     */
    public boolean advise(int rateHz) {
        if (rateHz < 0 || rateHz > SampleGrid.MAX_RATE_HZ) {
            throw new IllegalArgumentException("advised rate " + rateHz + " Hz, 0.." + SampleGrid.MAX_RATE_HZ + " allowed");
        }
        if (serviceClass == ServiceClass.HRT || rateHz == this.rateHz) {
            return false;
        }
        this.rateHz = rateHz;
        this.filter = rateHz == 0 ? null
                : RateFilter.ofRate(rateHz, publisherIntervalNanos);
        return true;
    }

    /** The publication's interval changed: the jitter tolerance follows it. */
    public void interval(long nanos) {
        this.publisherIntervalNanos = Math.max(0, nanos);
        int r = rateHz;
        rateHz = 0;
        filter = null;
        if (r != 0) {
            advise(r);
        }
    }

    /** Whether the sample taken at {@code sourceTimeNanos} is sent; counts it held if not. */
    public boolean send(long sourceTimeNanos) {
        if (filter == null || filter.accept(sourceTimeNanos)) {
            return true;
        }
        held++;
        return false;
    }

    /** The rate advised, 0 for none. */
    public int rateHz() {
        return rateHz;
    }

    /** Samples held back at the source. */
    public long held() {
        return held;
    }
}
