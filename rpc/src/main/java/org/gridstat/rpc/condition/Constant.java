package org.gridstat.rpc.condition;

/** {@code true} or {@code false}. */
record Constant(boolean value) implements Node {
    @Override
    public boolean holds(StatusView view, long nowEpochNanos) {
        return value;
    }

    @Override
    public String failure(StatusView view, long nowEpochNanos) {
        return value ? null : "'false' never holds";
    }

    @Override
    public void render(StringBuilder out) {
        out.append(value);
    }
}
