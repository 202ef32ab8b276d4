package org.gridstat.core.management;

import java.util.List;

/**
 * A subscription: to which variable, delivered at which router over which of its out-links, with
 * which QoS. The broker's answers add the id and the admitted paths, each a list of hops.
 */
public record SubscriptionDocument(Long id, String variable, String subscriberRouter, String subscriberLink,
                                   QosDocument qos, List<List<HopDocument>> paths) {
    /** One hop of a path: the forwarding router, the next one ({@code null}: local delivery), its budget. */
    public record HopDocument(String router, String next, long budgetNanos) {
    }
}
