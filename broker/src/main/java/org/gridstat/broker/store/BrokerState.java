package org.gridstat.broker.store;

import java.util.List;
import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.catalog.PublishedVariable;
import org.gridstat.broker.topology.Topology;

/**
 * Everything a broker resumes from: topology, variables, subscriptions (by id, with their paths
 * and flow ids), the leadership epoch it resumes in (0 for a broker without a store), the next
 * subscription and flow ids to give, and the requests remembered by key, oldest first.
 */
public record BrokerState(Topology topology, List<PublishedVariable> variables, List<AdmittedSubscription> subscriptions,
                          int epoch, long nextSubscriptionId, long nextFlowId, List<RememberedRequest> remembered) {
    public BrokerState(Topology topology, List<PublishedVariable> variables, List<AdmittedSubscription> subscriptions,
                       int epoch) {
        this(topology, variables, subscriptions, epoch, 1);
    }

    public BrokerState(Topology topology, List<PublishedVariable> variables, List<AdmittedSubscription> subscriptions,
                       int epoch, long nextSubscriptionId) {
        this(topology, variables, subscriptions, epoch, nextSubscriptionId, 1, List.of());
    }

    public BrokerState {
        variables = List.copyOf(variables);
        subscriptions = List.copyOf(subscriptions);
        remembered = List.copyOf(remembered);
        if (epoch < 0) {
            throw new IllegalArgumentException("epoch must not be negative");
        }
    }

    public static BrokerState empty(Topology topology) {
        return new BrokerState(topology, List.of(), List.of(), 0);
    }

    /** The same state resumed in another epoch. */
    public BrokerState inEpoch(int newEpoch) {
        return new BrokerState(topology, variables, subscriptions, newEpoch, nextSubscriptionId, nextFlowId, remembered);
    }
}
