package org.gridstat.broker;

/**
 * A change was recorded in the store, but sending it to the routers failed afterwards: the change
 * stands (a new leader, or the routers' next resynchronisation, carries it), so the request must
 * not be answered as refused.
 */
public final class StoredButNotInstalledException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StoredButNotInstalledException(String message, Throwable cause) {
        super(message, cause);
    }
}
