package org.gridstat.broker.store;

import java.util.List;
import java.util.Objects;
import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.catalog.PublishedVariable;
import org.gridstat.broker.install.FlowPlanner;

/**
 * What one broker operation changes, recorded as a whole or not at all: a variable declared, a
 * subscription put (new or modified) or removed, and the flows that changed with it.
 */
public record StateChange(PublishedVariable variable, AdmittedSubscription putSubscription, boolean newSubscription,
                          long removedSubscription, List<FlowPlanner.Change> flows) {
    public StateChange {
        flows = List.copyOf(Objects.requireNonNull(flows, "flows"));
    }

    public static StateChange declared(PublishedVariable v) {
        return new StateChange(v, null, false, 0, List.of());
    }

    public static StateChange added(AdmittedSubscription s, List<FlowPlanner.Change> flows) {
        return new StateChange(null, s, true, 0, flows);
    }

    public static StateChange modified(AdmittedSubscription s, List<FlowPlanner.Change> flows) {
        return new StateChange(null, s, false, 0, flows);
    }

    public static StateChange removed(long subscriptionId, List<FlowPlanner.Change> flows) {
        return new StateChange(null, null, false, subscriptionId, flows);
    }
}
