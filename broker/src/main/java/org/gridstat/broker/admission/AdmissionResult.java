package org.gridstat.broker.admission;

import java.util.List;

/** Admitted, with its paths and hop budgets, or rejected with the reason. */
public sealed interface AdmissionResult permits AdmissionResult.Admitted, AdmissionResult.Rejected {
    /**
     * The subscription's paths, each a list of hops from the publisher's router on; the last hop is
     * the subscriber's router delivering locally.
     */
    record Admitted(long subscriptionId, List<List<Hop>> paths) implements AdmissionResult {
    }

    /** Why the subscription cannot be admitted: the constraint that failed, and where. */
    record Rejected(long subscriptionId, String reason) implements AdmissionResult {
    }

    /**
     * One hop: the router that forwards, the next router ({@code null} for local delivery), the
     * hop's share of the end-to-end bound, and the budget of the path after it (what the router's
     * flow entry subtracts from an event's deadline to get its hop deadline).
     */
    record Hop(String router, String next, long budgetNanos, long downstreamBudgetNanos) {
    }
}
