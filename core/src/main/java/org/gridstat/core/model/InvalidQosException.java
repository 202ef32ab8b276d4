package org.gridstat.core.model;

import java.util.List;

/** A QoS specification that cannot be honoured as written; the message lists every problem found. */
public final class InvalidQosException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    InvalidQosException(List<String> problems) {
        super("invalid QoS specification: " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    /** Each problem, one sentence each. */
    public List<String> problems() {
        return problems;
    }
}
