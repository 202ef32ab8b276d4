package org.gridstat.rpc.condition;

/** {@code !expr}. */
record Negation(Node operand) implements Node {
    @Override
    public boolean holds(StatusView view, long nowEpochNanos) {
        return !operand.holds(view, nowEpochNanos);
    }

    @Override
    public String failure(StatusView view, long nowEpochNanos) {
        if (!operand.holds(view, nowEpochNanos)) {
            return null;
        }
        String inner = operand.rendered();
        return "not (" + inner + ") is false: " + inner + " holds";
    }

    @Override
    public void render(StringBuilder out) {
        out.append('!');
        // A comparison is bracketed too, though '!' already applies to all of it: "!x == 1" reads
        // to an operator as (!x) == 1.
        boolean group = operand instanceof Conjunction || operand instanceof Disjunction || operand instanceof Comparison;
        if (group) {
            out.append('(');
        }
        operand.render(out);
        if (group) {
            out.append(')');
        }
    }
}
