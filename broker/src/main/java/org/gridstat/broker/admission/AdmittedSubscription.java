package org.gridstat.broker.admission;

import java.util.Objects;

/**
 * A subscription the broker holds: the request, the declared variable's name (empty for a request
 * made by id), and the paths with their hop budgets.
 */
public record AdmittedSubscription(SubscriptionRequest request, String variableName, AdmissionResult.Admitted admitted) {
    public AdmittedSubscription {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(variableName, "variable name");
        Objects.requireNonNull(admitted, "admitted");
    }

    public long id() {
        return request.subscriptionId();
    }
}
