package org.gridstat.broker.store;

import java.util.List;
import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.catalog.PublishedVariable;
import org.gridstat.broker.topology.Topology;

/**
 * Everything a broker resumes from: topology, variables, subscriptions (by id, with their paths
 * and flow ids), and the leadership epoch it resumes in (0 for a broker without a store).
 */
public record BrokerState(Topology topology, List<PublishedVariable> variables, List<AdmittedSubscription> subscriptions,
                          int epoch, long nextSubscriptionId) {
    public BrokerState(Topology topology, List<PublishedVariable> variables, List<AdmittedSubscription> subscriptions,
                       int epoch) {
        this(topology, variables, subscriptions, epoch, 1);
    }

    public BrokerState {
        variables = List.copyOf(variables);
        subscriptions = List.copyOf(subscriptions);
        if (epoch < 0) {
            throw new IllegalArgumentException("epoch must not be negative");
        }
    }

    public static BrokerState empty(Topology topology) {
        return new BrokerState(topology, List.of(), List.of(), 0);
    }

    /** The same state resumed in another epoch. */
    public BrokerState inEpoch(int newEpoch) {
        return new BrokerState(topology, variables, subscriptions, newEpoch, nextSubscriptionId);
    }
}
