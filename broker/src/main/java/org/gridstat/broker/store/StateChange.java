package org.gridstat.broker.store;

import java.util.List;
import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.catalog.PublishedVariable;

/**
 * What one broker operation changes, recorded as a whole or not at all: a variable declared, or a
 * subscription put (new or modified, with its paths and flow ids) or removed; with it the broker's
 * next subscription and flow ids, and the key of the request that made it (with the keys that
 * makes the broker forget). Flows are not recorded: they follow from the subscriptions.
 */
public record StateChange(PublishedVariable variable, AdmittedSubscription putSubscription, boolean newSubscription,
                          long removedSubscription, long nextSubscriptionId, long nextFlowId,
                          RememberedRequest remembered, List<String> forgottenKeys) {
    public StateChange {
        forgottenKeys = forgottenKeys == null ? List.of() : List.copyOf(forgottenKeys);
    }

    public StateChange(PublishedVariable variable, AdmittedSubscription putSubscription, boolean newSubscription,
                       long removedSubscription) {
        this(variable, putSubscription, newSubscription, removedSubscription, 0, 0, null, List.of());
    }

    /** The same, recording the broker's next subscription id, so that ids are never given twice. */
    public StateChange withNextSubscriptionId(long next) {
        return new StateChange(variable, putSubscription, newSubscription, removedSubscription, next, nextFlowId,
                remembered, forgottenKeys);
    }

    /** The same, recording the broker's next flow id, so that a flow id is never given twice, failovers included. */
    public StateChange withNextFlowId(long next) {
        return new StateChange(variable, putSubscription, newSubscription, removedSubscription, nextSubscriptionId, next,
                remembered, forgottenKeys);
    }

    /** The same, remembering the request that made it and forgetting the oldest requests remembered. */
    public StateChange withRemembered(RememberedRequest request, List<String> forgotten) {
        return new StateChange(variable, putSubscription, newSubscription, removedSubscription, nextSubscriptionId,
                nextFlowId, request, forgotten);
    }

    public static StateChange declared(PublishedVariable v) {
        return new StateChange(v, null, false, 0);
    }

    public static StateChange added(AdmittedSubscription s) {
        return new StateChange(null, s, true, 0);
    }

    public static StateChange modified(AdmittedSubscription s) {
        return new StateChange(null, s, false, 0);
    }

    public static StateChange removed(long subscriptionId) {
        return new StateChange(null, null, false, subscriptionId);
    }
}
