package org.gridstat.rpc.condition;

/**
 * A node of a parsed condition. Evaluation has two passes: {@link #holds} is the one every call
 * takes and allocates nothing; {@link #failure} runs only after it said false, and builds the
 * words.
 */
sealed interface Node permits Constant, Negation, Conjunction, Disjunction, Comparison, Freshness, Presence {
    boolean holds(StatusView view, long nowEpochNanos);

    /**
     * Evaluates again, as {@link #holds} does and in the same order, and names the first failing
     * leaf.
     *
     * @return null if the node holds, else why not
     */
    String failure(StatusView view, long nowEpochNanos);

    /** Writes the node in the language's syntax, normalised: single spaces, only needed parentheses. */
    void render(StringBuilder out);

    default String rendered() {
        StringBuilder b = new StringBuilder();
        render(b);
        return b.toString();
    }
}
