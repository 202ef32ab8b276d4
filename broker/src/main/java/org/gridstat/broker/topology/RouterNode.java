package org.gridstat.broker.topology;

/**
 * A status router as the broker sees it: how many events per second it can forward, and the
 * queueing budget it is given per hop when an end-to-end bound is split into hop deadlines.
 */
public record RouterNode(String id, int index, long forwardingCapacity, long queueingBudgetNanos, String cloud) {
    public RouterNode {
        if (forwardingCapacity <= 0) {
            throw new IllegalArgumentException("router " + id + ": forwarding capacity must be positive");
        }
        if (queueingBudgetNanos < 0) {
            throw new IllegalArgumentException("router " + id + ": queueing budget must not be negative");
        }
    }
}
