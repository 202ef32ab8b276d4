package org.gridstat.broker.admission;

import java.util.List;

/** Admitted, with its paths and hop budgets, or rejected with the reason. */
public sealed interface AdmissionResult permits AdmissionResult.Admitted, AdmissionResult.Rejected {
    /**
     * The subscription's paths, each a list of hops from the publisher's router on; the last hop is
     * the subscriber's router delivering locally.
     */
    record Admitted(long subscriptionId, List<List<Hop>> paths) implements AdmissionResult {
        /**
         * The same paths as a segment of a longer path: every hop's downstream budget grows by
         * {@code afterBudgetNanos}, and its least rest-of-path delay by {@code afterMinDelayNanos}.
         */
        public Admitted followedBy(long afterBudgetNanos, long afterMinDelayNanos) {
            if (afterBudgetNanos == 0 && afterMinDelayNanos == 0) {
                return this;
            }
            return new Admitted(subscriptionId, paths.stream().map(p -> p.stream().map(h -> new Hop(h.router(), h.next(),
                    h.budgetNanos(), h.downstreamBudgetNanos() + afterBudgetNanos,
                    h.minRestDelayNanos() + afterMinDelayNanos)).toList()).toList());
        }
    }

    /** Why the subscription cannot be admitted: the constraint that failed, and where. */
    record Rejected(long subscriptionId, String reason) implements AdmissionResult {
    }

    /**
     * One hop: the router that forwards, the next router ({@code null} for local delivery), the
     * hop's share of the end-to-end bound, the budget of the path after it (what the router's flow
     * entry subtracts from an event's deadline to get its hop deadline), and the least delay of the
     * path after it: propagation plus transmission of one frame on each later link, no queueing
     * (an event that cannot meet its end-to-end deadline even so is a certain miss).
     */
    record Hop(String router, String next, long budgetNanos, long downstreamBudgetNanos, long minRestDelayNanos) {
    }
}
