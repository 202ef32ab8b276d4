package org.gridstat.sim.whatif;

import org.gridstat.core.model.ServiceClass;

/**
 * One class of one link: what its share is, and what the broker's flows hold of it before and
 * after the candidate, bytes per second. A flow shared by several subscriptions (multicast)
 * holds the largest rate among them, not the sum, so a candidate that joins one may add less
 * than its own rate, or nothing.
 */
public record LinkLoad(String link, ServiceClass serviceClass, long shareBytesPerSecond, long reservedBefore,
                       long reservedAfter) {
    /** Bytes per second the candidate adds (negative: frees). */
    public long change() {
        return reservedAfter - reservedBefore;
    }

    public double beforePercent() {
        return percent(reservedBefore);
    }

    public double afterPercent() {
        return percent(reservedAfter);
    }

    /** What the class has left after the candidate, bytes per second. */
    public long leftAfter() {
        return shareBytesPerSecond - reservedAfter;
    }

    private double percent(long reserved) {
        return shareBytesPerSecond == 0 ? 0 : 100.0 * reserved / shareBytesPerSecond;
    }
}
