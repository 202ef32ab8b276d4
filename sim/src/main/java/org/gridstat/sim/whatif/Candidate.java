package org.gridstat.sim.whatif;

import java.util.Objects;
import org.gridstat.core.model.QosSpec;

/** The subscription an operator is about to ask of the broker: to a declared variable, delivered at a router's link. */
public record Candidate(String label, String variable, String router, String link, QosSpec qos) {
    /** The label a candidate gets when none is given. */
    public static final String LABEL = "candidate";

    public Candidate {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(variable, "variable");
        Objects.requireNonNull(router, "router");
        Objects.requireNonNull(link, "link");
        Objects.requireNonNull(qos, "qos");
    }

    public Candidate(String variable, String router, String link, QosSpec qos) {
        this(LABEL, variable, router, link, qos);
    }

    /** The candidate as one more subscription of the state, once admitted. */
    public State.Subscription asSubscription() {
        return new State.Subscription(label, variable, router, link, qos);
    }
}
