package org.gridstat.broker;

/**
 * The broker stopped serving (recording a change failed) before taking this request; nothing of
 * it was done, and the replica that leads next serves it.
 */
public final class BrokerStoppedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public BrokerStoppedException(String message, Throwable cause) {
        super(message, cause);
    }
}
