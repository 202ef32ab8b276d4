package org.gridstat.broker.admission;

import java.util.Objects;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.VariableId;

/**
 * A subscription to admit: which variable (published at a router, in frames of a given size),
 * delivered to which router, with which QoS.
 */
public record SubscriptionRequest(long subscriptionId, VariableId variable, String publisherRouter,
                                  String subscriberRouter, int frameBytes, QosSpec qos) {
    /** IPv4 and UDP headers that every frame carries on the wire as well. */
    public static final int PACKET_OVERHEAD = 28;

    public SubscriptionRequest {
        Objects.requireNonNull(variable, "variable");
        Objects.requireNonNull(qos, "qos");
        if (frameBytes < 48 || frameBytes > 1472) {
            throw new IllegalArgumentException("frame size must be 48..1472 bytes, got " + frameBytes);
        }
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

    /** The rate if the interval is a whole rate's rounded interval (120 Hz: 8,333,333 ns), else 0. */
    private long wholeRate() {
        long interval = qos.intervalNanos();
        long whole = Math.round(1e9 / interval);
        return whole >= 1 && Math.round(1e9 / whole) == interval ? whole : 0;
    }
}
