package org.gridstat.rpc.condition;

/** {@code a && b && …}, evaluated left to right, stopping at the first false part. */
final class Conjunction implements Node {
    // An array, not a list: the hot path walks it without an iterator.
    private final Node[] parts;

    Conjunction(Node[] parts) {
        this.parts = parts.clone();
    }

    @Override
    public boolean holds(StatusView view, long nowEpochNanos) {
        for (Node part : parts) {
            if (!part.holds(view, nowEpochNanos)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String failure(StatusView view, long nowEpochNanos) {
        for (Node part : parts) {
            String why = part.failure(view, nowEpochNanos);
            if (why != null) {
                return why;
            }
        }
        return null;
    }

    @Override
    public void render(StringBuilder out) {
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                out.append(" && ");
            }
            boolean group = parts[i] instanceof Disjunction;
            if (group) {
                out.append('(');
            }
            parts[i].render(out);
            if (group) {
                out.append(')');
            }
        }
    }
}
