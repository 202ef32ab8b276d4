package org.gridstat.broker.store;

import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.catalog.PublishedVariable;

/**
 * What one broker operation changes, recorded as a whole or not at all: a variable declared, or a
 * subscription put (new or modified, with its paths and flow ids) or removed. Flows are not
 * recorded: they follow from the subscriptions.
 */
public record StateChange(PublishedVariable variable, AdmittedSubscription putSubscription, boolean newSubscription,
                          long removedSubscription, long nextSubscriptionId) {
    public StateChange(PublishedVariable variable, AdmittedSubscription putSubscription, boolean newSubscription,
                       long removedSubscription) {
        this(variable, putSubscription, newSubscription, removedSubscription, 0);
    }

    /** The same, recording the broker's next subscription id, so that ids are never given twice. */
    public StateChange withNextSubscriptionId(long next) {
        return new StateChange(variable, putSubscription, newSubscription, removedSubscription, next);
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
