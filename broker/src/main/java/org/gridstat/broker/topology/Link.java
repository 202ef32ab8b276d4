package org.gridstat.broker.topology;

import java.util.Map;
import org.gridstat.core.model.ServiceClass;

/**
 * One direction of a link: bandwidth in bytes per second, propagation delay, and the share of the
 * bandwidth each data class may reserve, in percent.
 */
public record Link(int index, RouterNode from, RouterNode to, long bandwidth, long delayNanos,
                   Map<ServiceClass, Integer> sharePercent) {
    public Link {
        if (bandwidth <= 0) {
            throw new IllegalArgumentException("link " + from.id() + "->" + to.id() + ": bandwidth must be positive");
        }
        if (delayNanos < 0) {
            throw new IllegalArgumentException("link " + from.id() + "->" + to.id() + ": delay must not be negative");
        }
        sharePercent = Map.copyOf(sharePercent);
    }

    /** What a class may reserve on the link, bytes per second. */
    public long classCapacity(ServiceClass c) {
        return org.gridstat.core.sched.LinkSpec.percentOf(bandwidth, sharePercent.getOrDefault(c, 0));
    }

    /**
     * The least time a packet of {@code wireBytes} takes over the link: its propagation delay plus
     * its transmission at the link's whole bandwidth, rounded down so that it never exceeds the
     * real figure.
     */
    public long minTransitNanos(long wireBytes) {
        return delayNanos + wireBytes * 1_000_000_000L / bandwidth;
    }

    public String name() {
        return from.id() + "->" + to.id();
    }
}
