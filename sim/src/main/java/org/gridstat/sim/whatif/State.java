package org.gridstat.sim.whatif;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;

/**
 * The broker's state as its management API shows it, independent of any wire format: the
 * topology, the declared variables and the admitted subscriptions in the order they were
 * admitted (a fresh broker is fed them in that order, so the order decides who gets the room
 * when the state no longer fits as a whole).
 */
public record State(Topology topology, List<Variable> variables, List<Subscription> subscriptions) {
    public State {
        Objects.requireNonNull(topology, "topology");
        variables = List.copyOf(variables);
        subscriptions = List.copyOf(subscriptions);
        Set<String> names = new HashSet<>();
        for (Variable v : variables) {
            if (!names.add(v.name())) {
                throw new IllegalArgumentException("variable '" + v.name() + "' is given twice");
            }
        }
        Set<String> labels = new HashSet<>();
        for (Subscription s : subscriptions) {
            if (!labels.add(s.label())) {
                throw new IllegalArgumentException("subscription '" + s.label() + "' is given twice");
            }
        }
    }

    /** The declared variable of that name, or {@code null}. */
    public Variable variable(String name) {
        return variables.stream().filter(v -> v.name().equals(name)).findFirst().orElse(null);
    }

    /**
     * A declared variable: where it is published, its frame size (header included), the
     * publisher's interval, its class and correlation group (its substation; empty: none).
     */
    public record Variable(String name, String router, int frameBytes, long intervalNanos, ServiceClass serviceClass,
                           String correlationGroup) {
        public Variable {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(router, "router");
            Objects.requireNonNull(serviceClass, "service class");
            correlationGroup = correlationGroup == null ? "" : correlationGroup;
            if (intervalNanos <= 0) {
                throw new IllegalArgumentException("variable '" + name + "': interval must be positive");
            }
        }
    }

    /**
     * An admitted subscription: {@code label} names it in the preview (the management API's id
     * serves), delivered at {@code router} over its delivery link {@code link}.
     */
    public record Subscription(String label, String variable, String router, String link, QosSpec qos) {
        public Subscription {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(variable, "variable");
            Objects.requireNonNull(router, "router");
            Objects.requireNonNull(link, "link");
            Objects.requireNonNull(qos, "qos");
        }

        /** How a line names it: variable, then where it is delivered. */
        public String flowName() {
            return variable + "→" + router + "/" + link;
        }
    }
}
