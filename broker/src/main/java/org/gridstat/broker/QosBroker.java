package org.gridstat.broker;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.stream.Collectors;
import org.gridstat.broker.admission.AdmissionController;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.SubscriptionRequest;
import org.gridstat.broker.control.ControlChannelServer;
import org.gridstat.broker.install.FlowPlanner;
import org.gridstat.broker.topology.RouterNode;
import org.gridstat.broker.topology.Topology;

/**
 * A QoS broker governing one topology: it admits subscriptions, plans the flows they need in each
 * router and installs them over the control channel; unsubscribing frees the reservations and
 * removes or narrows the flows. Subscribe and unsubscribe are serialised.
 */
public final class QosBroker implements AutoCloseable {
    private final AdmissionController admission;
    private final FlowPlanner planner = new FlowPlanner();
    private final ControlChannelServer control;

    public QosBroker(Topology topology, InetSocketAddress controlBind) {
        this.admission = new AdmissionController(topology);
        this.control = new ControlChannelServer(controlBind,
                topology.routers().stream().map(RouterNode::id).collect(Collectors.toSet()));
    }

    /** Admits the subscription and, if admitted, installs its flows in the routers on its paths. */
    public synchronized AdmissionResult subscribe(SubscriptionRequest request) {
        AdmissionResult result = admission.admit(request);
        if (result instanceof AdmissionResult.Admitted admitted) {
            try {
                apply(planner.add(request, admitted));
            } catch (RuntimeException e) {
                admission.release(request.subscriptionId());
                throw e;
            }
        }
        return result;
    }

    /** Frees the subscription's reservations and removes what only it needed; false if unknown. */
    public synchronized boolean unsubscribe(long subscriptionId) {
        if (!admission.release(subscriptionId)) {
            return false;
        }
        apply(planner.remove(subscriptionId));
        return true;
    }

    private void apply(List<FlowPlanner.Change> changes) {
        for (FlowPlanner.Change c : changes) {
            if (c.isRemoval()) {
                control.remove(c.router(), c.removeFlowId(), c.removeVersion());
            } else {
                control.install(c.router(), c.install());
            }
        }
    }

    public InetSocketAddress controlAddress() {
        return control.address();
    }

    public ControlChannelServer control() {
        return control;
    }

    public AdmissionController admission() {
        return admission;
    }

    @Override
    public void close() {
        control.close();
    }
}
