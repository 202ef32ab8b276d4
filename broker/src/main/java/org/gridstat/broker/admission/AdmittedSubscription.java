package org.gridstat.broker.admission;

import java.util.Objects;

/**
 * A subscription the broker holds: the request, the declared variable's name (empty for a request
 * made by id), the paths with their hop budgets, and the id of the flow each hop uses (in path
 * order), so that a broker resuming it gives routers the flows they hold.
 */
public record AdmittedSubscription(SubscriptionRequest request, String variableName, AdmissionResult.Admitted admitted,
                                   java.util.List<Long> flowIds) {
    public AdmittedSubscription {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(variableName, "variable name");
        Objects.requireNonNull(admitted, "admitted");
        flowIds = java.util.List.copyOf(flowIds);
    }

    public long id() {
        return request.subscriptionId();
    }

    /** The budget of the path after the subscriber router's out-link: its last hop's downstream budget. */
    public long downstreamNanos() {
        java.util.List<AdmissionResult.Hop> path = admitted.paths().get(0);
        return path.get(path.size() - 1).downstreamBudgetNanos();
    }

    /** The least delay of the path after the subscriber router's out-link: its last hop's rest delay. */
    public long minRestAfterNanos() {
        java.util.List<AdmissionResult.Hop> path = admitted.paths().get(0);
        return path.get(path.size() - 1).minRestDelayNanos();
    }
}
