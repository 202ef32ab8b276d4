package org.gridstat.broker.api;

import java.util.Objects;

/**
 * What keeps the management API answering whatever its clients do: at most
 * {@code maxConnections} connections (at the cap the longest-idle connection without a request in
 * progress makes room, see {@link ConnectionCap}), and a request must arrive whole within
 * {@code requestDeadlineNanos} of its first byte (else 408 and the connection is closed), however
 * slowly its bytes trickle in. Event streams ({@code GET /api/v1/events}) are bounded by
 * {@code events} instead: a stream is one long answer, not a request waited for.
 */
public record ApiLimits(int maxConnections, long requestDeadlineNanos, EventStreamSettings events) {
    public static final int DEFAULT_MAX_CONNECTIONS = 1000;
    public static final long DEFAULT_REQUEST_DEADLINE_NANOS = 10_000_000_000L;
    public static final ApiLimits DEFAULT = new ApiLimits(DEFAULT_MAX_CONNECTIONS, DEFAULT_REQUEST_DEADLINE_NANOS);

    /** With the default event stream settings. */
    public ApiLimits(int maxConnections, long requestDeadlineNanos) {
        this(maxConnections, requestDeadlineNanos, EventStreamSettings.DEFAULT);
    }

    public ApiLimits {
        if (maxConnections < 1) {
            throw new IllegalArgumentException("API connection cap must be positive, got " + maxConnections);
        }
        if (requestDeadlineNanos <= 0) {
            throw new IllegalArgumentException("API request deadline must be positive, got " + requestDeadlineNanos + " ns");
        }
        Objects.requireNonNull(events, "event stream settings");
    }
}
