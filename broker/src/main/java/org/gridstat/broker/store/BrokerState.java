package org.gridstat.broker.store;

import java.util.List;
import java.util.Map;
import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.catalog.PublishedVariable;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.control.ControlMessage.InstallFlow;

/** Everything a broker resumes from: topology, variables, subscriptions (by id) and flows (by router). */
public record BrokerState(Topology topology, List<PublishedVariable> variables, List<AdmittedSubscription> subscriptions,
                          Map<String, List<InstallFlow>> flows) {
    public BrokerState {
        variables = List.copyOf(variables);
        subscriptions = List.copyOf(subscriptions);
        flows = Map.copyOf(flows);
    }

    public static BrokerState empty(Topology topology) {
        return new BrokerState(topology, List.of(), List.of(), Map.of());
    }
}
