package org.gridstat.client;

/**
 * A broker request failed for a reason other than admission: no replica reachable, no leader, or
 * a request the broker refused (status and the broker's message).
 */
public final class BrokerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;

    public BrokerException(int status, String message) {
        super(message);
        this.status = status;
    }

    public BrokerException(String message, Throwable cause) {
        super(message, cause);
        this.status = 0;
    }

    /** The HTTP status the broker answered, 0 if none answered. */
    public int status() {
        return status;
    }
}
