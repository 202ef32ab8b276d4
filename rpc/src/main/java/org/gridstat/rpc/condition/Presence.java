package org.gridstat.rpc.condition;

/** {@code known(X)}: a sample of X has arrived. */
record Presence(String variable) implements Node {
    @Override
    public boolean holds(StatusView view, long nowEpochNanos) {
        return view.known(variable);
    }

    @Override
    public String failure(StatusView view, long nowEpochNanos) {
        return view.known(variable) ? null : OperatorWords.noSample(variable);
    }

    @Override
    public void render(StringBuilder out) {
        out.append("known(").append(variable).append(')');
    }
}
