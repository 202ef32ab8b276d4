package org.gridstat.rpc.condition;

import java.util.Objects;

/**
 * The outcome of evaluating a {@link Condition}: whether it holds and, when it does not, which part
 * failed, in words an operator reads in a call's result ("holds" when it holds).
 */
public record Verdict(boolean holds, String explanation) {
    static final Verdict HOLDS = new Verdict(true, "holds");

    public Verdict {
        Objects.requireNonNull(explanation, "explanation");
    }
}
