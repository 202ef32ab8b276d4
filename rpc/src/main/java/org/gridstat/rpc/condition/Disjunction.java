package org.gridstat.rpc.condition;

/**
 * {@code a || b || …}, evaluated left to right, stopping at the first true part. When every part
 * is false the explanation is the first part's: the first failing leaf in evaluation order.
 */
final class Disjunction implements Node {
    private final Node[] parts;

    Disjunction(Node[] parts) {
        this.parts = parts.clone();
    }

    @Override
    public boolean holds(StatusView view, long nowEpochNanos) {
        for (Node part : parts) {
            if (part.holds(view, nowEpochNanos)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String failure(StatusView view, long nowEpochNanos) {
        String first = null;
        for (Node part : parts) {
            String why = part.failure(view, nowEpochNanos);
            if (why == null) {
                return null;
            }
            if (first == null) {
                first = why;
            }
        }
        return first;
    }

    @Override
    public void render(StringBuilder out) {
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                out.append(" || ");
            }
            parts[i].render(out);
        }
    }
}
