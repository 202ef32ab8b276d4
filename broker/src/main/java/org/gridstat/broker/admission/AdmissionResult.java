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

    /**
     * Why the subscription cannot be admitted: the constraint that failed, and where.
     * {@code uncarriable}: the request asks what the system cannot carry (a rate above the
     * publisher's, a flow beyond the rates one flow holds), not what the network lacks room for now;
     * the management API answers it 400 rather than 409.
     */
    record Rejected(long subscriptionId, String reason, boolean uncarriable) implements AdmissionResult {
        /** Refused for want of room, paths or time. */
        public Rejected(long subscriptionId, String reason) {
            this(subscriptionId, reason, false);
        }
    }

    /**
     * One hop: the router that forwards, the next router ({@code null} for local delivery), the
     * hop's share of the end-to-end bound, the budget of the path after it (what the router's flow
     * entry subtracts from an event's deadline to get its hop deadline), and the least delay of the
     * path from the hop's departure on: propagation plus transmission of one frame on its own link
     * and each later one, no queueing (an event that cannot meet its end-to-end deadline even so
     * is a certain miss); 0 for the subscriber router's delivery.
     */
    record Hop(String router, String next, long budgetNanos, long downstreamBudgetNanos, long minRestDelayNanos) {
    }
}
