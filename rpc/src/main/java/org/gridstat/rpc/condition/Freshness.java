package org.gridstat.rpc.condition;

import org.gridstat.core.time.Saturating;

/**
 * {@code fresh(X, d)}: X has a sample whose source time t satisfies
 * {@code now - d <= t <= now + LatestValues.FUTURE_TOLERANCE_NANOS}. Both bounds saturate: a
 * huge d or a source time near the ends of {@code long} must not wrap into "fresh".
 *
 * @param maxAgeText the duration as the condition's author wrote it, for the words
 */
record Freshness(String variable, long maxAgeNanos, String maxAgeText) implements Node {
    @Override
    public boolean holds(StatusView view, long nowEpochNanos) {
        if (!view.known(variable)) {
            return false;
        }
        long t = view.sourceTimeNanos(variable);
        return t >= Saturating.subtract(nowEpochNanos, maxAgeNanos)
                && t <= Saturating.add(nowEpochNanos, LatestValues.FUTURE_TOLERANCE_NANOS);
    }

    @Override
    public String failure(StatusView view, long nowEpochNanos) {
        if (!view.known(variable)) {
            return OperatorWords.noSample(variable);
        }
        long t = view.sourceTimeNanos(variable);
        if (t < Saturating.subtract(nowEpochNanos, maxAgeNanos)) {
            return variable + " is " + OperatorWords.duration(Saturating.subtract(nowEpochNanos, t)) + " old; "
                    + rendered() + " asks for at most " + OperatorWords.duration(maxAgeNanos);
        }
        if (t > Saturating.add(nowEpochNanos, LatestValues.FUTURE_TOLERANCE_NANOS)) {
            return variable + " is stamped " + OperatorWords.duration(Saturating.subtract(t, nowEpochNanos))
                    + " ahead of the clock; " + rendered() + " allows at most "
                    + OperatorWords.duration(LatestValues.FUTURE_TOLERANCE_NANOS) + " ahead";
        }
        return null;
    }

    @Override
    public void render(StringBuilder out) {
        out.append("fresh(").append(variable).append(", ").append(maxAgeText).append(')');
    }
}
