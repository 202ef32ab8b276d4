package org.gridstat.broker.control;

import java.util.Objects;
import org.gridstat.core.control.ControlLiveness;

/**
 * What keeps the control port answering: heartbeats in both directions (a router silent for the
 * timeout loses its session), a deadline for a new connection's {@code Hello}, and a cap on
 * connections. At the cap a new connection displaces the oldest one that has not said
 * {@code Hello}; if every connection is a router's session, the new one is closed at once.
 */
public record ControlLimits(ControlLiveness.Timing heartbeat, long helloDeadlineNanos, int maxConnections,
                            long adaptationDelayNanos) {
    public static final long DEFAULT_HELLO_DEADLINE_NANOS = 2_000_000_000L;
    public static final int DEFAULT_MAX_CONNECTIONS = 1024;
    /** {@link #adaptationDelayNanos} for a broker that does not re-plan on congestion alarms. */
    public static final long NO_ADAPTATION = -1;
    public static final ControlLimits DEFAULT = new ControlLimits(ControlLiveness.Timing.DEFAULT,
            DEFAULT_HELLO_DEADLINE_NANOS, DEFAULT_MAX_CONNECTIONS);

    /** With the default reaction delay of global adaptation. */
    public ControlLimits(ControlLiveness.Timing heartbeat, long helloDeadlineNanos, int maxConnections) {
        this(heartbeat, helloDeadlineNanos, maxConnections,
                org.gridstat.broker.adapt.GlobalAdaptation.DEFAULT_DELAY.toNanos());
    }

    /**
     * @param adaptationDelayNanos how long after a router reports a congested HRT flow it cannot
     *                             serve the broker re-plans it, if it is still short
     *                             ({@link org.gridstat.broker.adapt.GlobalAdaptation}); {@link #NO_ADAPTATION}: never
     */
    public ControlLimits {
        if (adaptationDelayNanos < 0 && adaptationDelayNanos != NO_ADAPTATION) {
            throw new IllegalArgumentException("adaptation delay must not be negative, got " + adaptationDelayNanos + " ns");
        }
        Objects.requireNonNull(heartbeat, "heartbeat");
        if (helloDeadlineNanos <= 0) {
            throw new IllegalArgumentException("hello deadline must be positive, got " + helloDeadlineNanos + " ns");
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("control connection cap must be positive, got " + maxConnections);
        }
    }
}
