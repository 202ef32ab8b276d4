package org.gridstat.broker.admission;

import java.util.Objects;
import org.gridstat.core.filter.SampleGrid;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.VariableId;

/**
 * A subscription to admit: which variable (published at a router, in frames of a given size, at
 * the publisher's interval), delivered to which router and there over which of its out-links (the
 * subscriber's), with which QoS.
 */
public record SubscriptionRequest(long subscriptionId, VariableId variable, String publisherRouter,
                                  String subscriberRouter, int frameBytes, QosSpec qos, String subscriberLink,
                                  long publisherIntervalNanos) {
    /** IPv4 and UDP headers that every frame carries on the wire as well. */
    public static final int PACKET_OVERHEAD = org.gridstat.core.wire.WireFormat.DATAGRAM_OVERHEAD;

    /** A request without delivery details: for admission checks and what-if questions. */
    public SubscriptionRequest(long subscriptionId, VariableId variable, String publisherRouter, String subscriberRouter,
                               int frameBytes, QosSpec qos) {
        this(subscriptionId, variable, publisherRouter, subscriberRouter, frameBytes, qos, "", 0);
    }

    public SubscriptionRequest {
        Objects.requireNonNull(variable, "variable");
        Objects.requireNonNull(qos, "qos");
        Objects.requireNonNull(subscriberLink, "subscriber link");
        if (publisherIntervalNanos < 0) {
            throw new IllegalArgumentException("publisher interval must not be negative");
        }
        if (frameBytes < 48 || frameBytes > 1472) {
            throw new IllegalArgumentException("frame size must be 48..1472 bytes, got " + frameBytes);
        }
    }

    /** Bytes one event takes on a link: its frame and the IPv4 and UDP headers. */
    public int wireBytes() {
        return frameBytes + PACKET_OVERHEAD;
    }

    /** Bandwidth one copy of the stream needs on a link, bytes per second, rounded up. */
    public long bytesPerSecond() {
        long whole = wholeRate();
        return whole > 0 ? (frameBytes + PACKET_OVERHEAD) * whole
                : (long) Math.ceil((frameBytes + PACKET_OVERHEAD) * 1e9 / qos.intervalNanos());
    }

    /** Events per second, rounded up. */
    public long eventsPerSecond() {
        long whole = wholeRate();
        return whole > 0 ? whole : (long) Math.ceil(1e9 / qos.intervalNanos());
    }

    private long wholeRate() {
        return SampleGrid.ofInterval(qos.intervalNanos()).wholeRate();
    }
}
