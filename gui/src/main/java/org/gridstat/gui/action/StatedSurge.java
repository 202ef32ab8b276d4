package org.gridstat.gui.action;

import java.util.List;

/**
 * The surge an operator states for a preview: variable {@code variable}'s publisher publishing at
 * {@code rateHz} instead of its declared rate, so "what if" says which flows would become victims
 * if it did. Optional: both fields empty state none.
 */
public record StatedSurge(String variable, double rateHz) {
    /** A publisher's interval lies within 100 µs and 1 h, as the simulator's surge takes it. */
    static final double MAX_RATE_HZ = 10_000;

    /**
     * The surge the form's two fields state, {@code null} if both are empty; each problem found is
     * added to {@code problems}.
     */
    static StatedSurge check(String variable, String rate, List<String> problems) {
        String v = SubscriptionRequest.trim(variable);
        String r = SubscriptionRequest.trim(rate);
        if (v.isEmpty() && r.isEmpty()) {
            return null;
        }
        int before = problems.size();
        if (v.isEmpty() || v.length() > 255 || !SubscriptionRequest.VARIABLE.matcher(v).matches()) {
            problems.add("surge variable: the variable whose publisher surges (empty, with the rate, for no surge)");
        }
        double hz = SubscriptionRequest.number(r, "surge rate", problems);
        if (!Double.isNaN(hz) && (hz < SubscriptionRequest.MIN_RATE_HZ || hz > MAX_RATE_HZ)) {
            problems.add("surge rate: between 1 per hour and 10,000 Hz");
        }
        return problems.size() == before ? new StatedSurge(v, hz) : null;
    }

    /** For the operator: {@code utilityA/sub1/pmu1/freq at 120 Hz}. */
    public String describe() {
        return variable + " at " + Figures.hz(rateHz);
    }
}
