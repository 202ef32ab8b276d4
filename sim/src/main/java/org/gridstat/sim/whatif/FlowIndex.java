package org.gridstat.sim.whatif;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.catalog.PublishedVariable;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.control.ControlMessage;

/**
 * The flows a broker planned, each traced to the subscriptions that ride it: congestion control
 * decides about a router's flow by its id, and an operator reads about subscriptions.
 */
final class FlowIndex {
    /**
     * One router's flow of one variable over one out-link.
     *
     * @param link   the out-link as lines name it: {@code a->b}, or {@code router/name} for a delivery link
     * @param labels the subscriptions whose paths cross it, sorted
     * @param routedIntervalNanos   the shortest interval a subscriber behind it asks
     * @param publisherIntervalNanos the interval its variable was declared at
     */
    record Flow(String router, String outLink, String link, String variable, List<String> labels,
                long routedIntervalNanos, long publisherIntervalNanos) {
        /**
         * Copies it forwards a second when the publisher sends every {@code actualIntervalNanos}:
         * every sample if a subscriber behind it asks the declared rate (the rate filter then has
         * nothing to thin out, whatever the actual rate), else at most the rate asked.
         */
        double copiesPerSecond(long actualIntervalNanos) {
            double published = 1e9 / actualIntervalNanos;
            return routedIntervalNanos <= publisherIntervalNanos ? published
                    : Math.min(published, 1e9 / routedIntervalNanos);
        }
    }

    private record Place(String router, String outLink, long variableId) {
    }

    private final Map<String, Flow> flows;

    private FlowIndex(Map<String, Flow> flows) {
        this.flows = flows;
    }

    static FlowIndex of(Topology topology, QosBroker broker, Map<Long, String> labels) {
        Map<Long, String> names = new HashMap<>();
        for (PublishedVariable v : broker.variables()) {
            names.put(v.id(), v.name());
        }
        Map<Place, TreeSet<String>> riders = new HashMap<>();
        for (AdmittedSubscription s : broker.subscriptions()) {
            String label = labels.get(s.id());
            if (label == null) {
                continue;
            }
            for (List<AdmissionResult.Hop> path : s.admitted().paths()) {
                for (AdmissionResult.Hop h : path) {
                    String out = h.next() != null ? h.next() : s.request().subscriberLink();
                    riders.computeIfAbsent(new Place(h.router(), out, s.request().variable().value()),
                            k -> new TreeSet<>()).add(label);
                }
            }
        }
        Map<String, Flow> flows = new HashMap<>();
        broker.flows().forEach((router, installs) -> {
            for (ControlMessage.InstallFlow f : installs) {
                Place p = new Place(router, f.link(), f.variableId());
                String link = topology.link(router, f.link()) != null ? router + "->" + f.link() : router + "/" + f.link();
                flows.put(key(router, f.spec().flowId()), new Flow(router, f.link(), link,
                        names.getOrDefault(f.variableId(), "variable " + f.variableId()),
                        new ArrayList<>(riders.getOrDefault(p, new TreeSet<>())),
                        java.util.Arrays.stream(f.intervalsNanos()).min().orElse(f.publisherIntervalNanos()),
                        f.publisherIntervalNanos()));
            }
        });
        return new FlowIndex(flows);
    }

    /**
     * Copies all the flows forward a second, every publisher at its declared rate but the surge's
     * ({@code null}: none): what a simulation of them costs grows with it.
     */
    double copiesPerSecond(Surge surge) {
        double sum = 0;
        for (Flow f : flows.values()) {
            boolean surging = surge != null && surge.variable().equals(f.variable());
            sum += f.copiesPerSecond(surging ? surge.intervalNanos() : f.publisherIntervalNanos());
        }
        return sum;
    }

    /** How many flows the routers hold: each costs the simulation its queue's counters and histograms. */
    int size() {
        return flows.size();
    }

    /** The flow with this id at this router, or {@code null} (not one the broker planned). */
    Flow flow(String router, long flowId) {
        return flows.get(key(router, flowId));
    }

    private static String key(String router, long flowId) {
        return router + "\n" + flowId;
    }
}
