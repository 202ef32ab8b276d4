package org.gridstat.broker.api;

/**
 * What keeps the management API answering whatever its clients do: at most
 * {@code maxConnections} connections (at the cap the longest-idle connection without a request in
 * progress makes room, see {@link ConnectionCap}), and a request must arrive whole within
 * {@code requestDeadlineNanos} of its first byte (else 408 and the connection is closed), however
 * slowly its bytes trickle in.
 */
public record ApiLimits(int maxConnections, long requestDeadlineNanos) {
    public static final int DEFAULT_MAX_CONNECTIONS = 1000;
    public static final long DEFAULT_REQUEST_DEADLINE_NANOS = 10_000_000_000L;
    public static final ApiLimits DEFAULT = new ApiLimits(DEFAULT_MAX_CONNECTIONS, DEFAULT_REQUEST_DEADLINE_NANOS);

    public ApiLimits {
        if (maxConnections < 1) {
            throw new IllegalArgumentException("API connection cap must be positive, got " + maxConnections);
        }
        if (requestDeadlineNanos <= 0) {
            throw new IllegalArgumentException("API request deadline must be positive, got " + requestDeadlineNanos + " ns");
        }
    }
}
