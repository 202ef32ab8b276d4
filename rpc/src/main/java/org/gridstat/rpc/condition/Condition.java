package org.gridstat.rpc.condition;

import java.util.Collections;
import java.util.Objects;
import java.util.Set;

/**
 * A pre- or post-condition of an RPC operation: a predicate over the latest samples of status
 * variables, such as {@code fresh(sub1/breaker52/state, 200ms) && sub1/breaker52/state == 1}.
 * Parsed once, when the operation is exported; evaluated on every call, without allocating when
 * it holds. Fail-safe: a condition that cannot be established (no sample, a NaN value, a stale or
 * future-stamped sample) is false, and the {@link Verdict} names the first part that failed.
 * Grammar, semantics and limits: docs/rpc-conditions.md. Immutable and safe to share between
 * threads.
 */
public final class Condition {
    /** The condition that always holds, for an operation without one. */
    public static final Condition ALWAYS = parse("true");

    private final String text;
    private final Node root;
    private final Set<String> variables;

    private Condition(String text, Node root, Set<String> variables) {
        this.text = text;
        this.root = root;
        this.variables = variables;
    }

    /**
     * Parses a condition.
     *
     * @throws ConditionSyntaxException naming the column and what was expected there, if the text
     *     is not in the language or exceeds a limit (2048 characters, nesting 32 deep, 64 distinct
     *     variables)
     */
    public static Condition parse(String text) {
        Objects.requireNonNull(text, "condition text");
        ConditionParser.Parsed parsed = ConditionParser.parse(text);
        return new Condition(text, parsed.root(), Collections.unmodifiableSet(parsed.variables()));
    }

    /**
     * Evaluates the condition over the latest samples.
     *
     * @param nowEpochNanos the server's clock, epoch nanoseconds, against which freshness is judged
     */
    public Verdict evaluate(StatusView view, long nowEpochNanos) {
        if (root.holds(view, nowEpochNanos)) {
            return Verdict.HOLDS;
        }
        // A second pass finds the words. Samples may have moved in between; the second pass is a
        // whole evaluation of its own, so if it now holds, the condition holds.
        String why = root.failure(view, nowEpochNanos);
        return why == null ? Verdict.HOLDS : new Verdict(false, why);
    }

    /** The first pass alone: tests check that it agrees with the second, which would otherwise hide it. */
    boolean holds(StatusView view, long nowEpochNanos) {
        return root.holds(view, nowEpochNanos);
    }

    /** The second pass alone: null if the condition holds, else why not. */
    String whyNot(StatusView view, long nowEpochNanos) {
        return root.failure(view, nowEpochNanos);
    }

    /** The status variables the condition reads, in order of first appearance: the server subscribes to them. */
    public Set<String> variables() {
        return variables;
    }

    /** The text as written. */
    public String text() {
        return text;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Condition c && c.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
