package org.gridstat.broker.control;

import java.util.Objects;
import org.gridstat.core.control.ControlLiveness;

/**
 * What keeps the control port answering: heartbeats in both directions (a router silent for the
 * timeout loses its session), a deadline for a new connection's {@code Hello}, and a cap on
 * connections. At the cap a new connection displaces the oldest one that has not said
 * {@code Hello}; if every connection is a router's session, the new one is closed at once.
 */
public record ControlLimits(ControlLiveness.Timing heartbeat, long helloDeadlineNanos, int maxConnections) {
    public static final long DEFAULT_HELLO_DEADLINE_NANOS = 2_000_000_000L;
    public static final int DEFAULT_MAX_CONNECTIONS = 1024;
    public static final ControlLimits DEFAULT = new ControlLimits(ControlLiveness.Timing.DEFAULT,
            DEFAULT_HELLO_DEADLINE_NANOS, DEFAULT_MAX_CONNECTIONS);

    public ControlLimits {
        Objects.requireNonNull(heartbeat, "heartbeat");
        if (helloDeadlineNanos <= 0) {
            throw new IllegalArgumentException("hello deadline must be positive, got " + helloDeadlineNanos + " ns");
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("control connection cap must be positive, got " + maxConnections);
        }
    }
}
