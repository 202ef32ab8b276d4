package org.gridstat.core.management;

import java.util.List;

/**
 * A subscription: to which variable, delivered at which router over which of its out-links, with
 * which QoS. The broker's answers add the id and the admitted paths, each a list of hops.
 * {@code downstreamBudgetMs}, for a segment of a longer path (a parent broker's), is the budget of
 * the path after the subscriber router's out-link; {@code minRestDelayMs}, likewise, the least
 * delay of the path from that out-link on (propagation and transmission, as far as the parent
 * knows it); absent means none.
 */
public record SubscriptionDocument(Long id, String variable, String subscriberRouter, String subscriberLink,
                                   QosDocument qos, List<List<HopDocument>> paths, Double downstreamBudgetMs,
                                   Double minRestDelayMs) {
    /** A request or answer without a downstream budget. */
    public SubscriptionDocument(Long id, String variable, String subscriberRouter, String subscriberLink,
                                QosDocument qos, List<List<HopDocument>> paths) {
        this(id, variable, subscriberRouter, subscriberLink, qos, paths, null, null);
    }

    /** A request or answer with a downstream budget but no rest delay. */
    public SubscriptionDocument(Long id, String variable, String subscriberRouter, String subscriberLink,
                                QosDocument qos, List<List<HopDocument>> paths, Double downstreamBudgetMs) {
        this(id, variable, subscriberRouter, subscriberLink, qos, paths, downstreamBudgetMs, null);
    }

    /** One hop of a path: the forwarding router, the next one ({@code null}: local delivery), its budget. */
    public record HopDocument(String router, String next, long budgetNanos) {
    }
}
