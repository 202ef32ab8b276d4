package org.gridstat.client;

/** The broker cannot admit a subscription (or a change to one); {@link #reason} says which constraint failed where. */
public final class SubscriptionRejectedException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String reason;

    public SubscriptionRejectedException(String reason) {
        super("subscription rejected: " + reason);
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }
}
