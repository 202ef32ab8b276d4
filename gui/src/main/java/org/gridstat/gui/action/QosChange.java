package org.gridstat.gui.action;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.gridstat.gui.model.Subscription;

/**
 * A change of an admitted subscription's QoS: only the fields given change
 * ({@code PUT /subscriptions/{id}}); {@code null} keeps the current value. The correlation group
 * is a subscription's QoS field in the API, so a flow's group is changed through the
 * subscription(s) it serves.
 */
public record QosChange(Double rateHz, Double latencyBoundMs, String serviceClass, String correlationGroup) {
    /** A change checked against the subscription's current values: fields left as they are are not sent. */
    public record Checked(QosChange change, List<String> problems) {
        public boolean ok() {
            return problems.isEmpty();
        }
    }

    public static Checked check(Subscription current, String rate, String bound, String serviceClass, String group) {
        List<String> problems = new ArrayList<>();
        Double hz = null;
        if (!SubscriptionRequest.trim(rate).isEmpty()) {
            double d = SubscriptionRequest.number(rate, "rate", problems);
            if (!Double.isNaN(d) && (d < SubscriptionRequest.MIN_RATE_HZ || d > SubscriptionRequest.MAX_RATE_HZ)) {
                problems.add("rate: between 1 per hour and 1000 Hz");
            } else if (!Double.isNaN(d) && Math.abs(d - current.rateHz()) > 1e-9) {
                hz = d;
            }
        }
        Double ms = null;
        if (!SubscriptionRequest.trim(bound).isEmpty()) {
            double d = SubscriptionRequest.number(bound, "latency bound", problems);
            if (!Double.isNaN(d) && (d < 1 || d > 60_000)) {
                problems.add("latency bound: 1 ms to 60,000 ms");
            } else if (!Double.isNaN(d) && Math.abs(d - current.latencyBoundMs()) > 1e-9) {
                ms = d;
            }
        }
        String c = SubscriptionRequest.trim(serviceClass).toUpperCase(Locale.ROOT);
        if (!c.isEmpty() && !SubscriptionRequest.CLASSES.contains(c)) {
            problems.add("class: HRT, LRT or BE");
        }
        String cls = c.isEmpty() || c.equals(current.serviceClass()) ? null : c;
        String g = group == null ? null : group.strip();
        if (g != null && !SubscriptionRequest.GROUP.matcher(g).matches()) {
            problems.add("correlation group: at most 128 letters, digits, '_', '-', '.', '/' (empty: none)");
        }
        String grp = g == null || g.equals(current.correlationGroup()) ? null : g;
        if (problems.isEmpty() && hz == null && ms == null && cls == null && grp == null) {
            problems.add("nothing to change: every field holds the subscription's current value");
        }
        return new Checked(problems.isEmpty() ? new QosChange(hz, ms, cls, grp) : null, List.copyOf(problems));
    }

    /** What it changes, from what to what: the confirmation's text. */
    public String describe(Subscription s) {
        List<String> parts = new ArrayList<>();
        if (rateHz != null) {
            parts.add("rate " + Figures.hz(s.rateHz()) + " → " + Figures.hz(rateHz));
        }
        if (latencyBoundMs != null) {
            parts.add("latency bound " + Figures.ms(s.latencyBoundMs()) + " → " + Figures.ms(latencyBoundMs));
        }
        if (serviceClass != null) {
            parts.add("class " + s.serviceClass() + " → " + serviceClass);
        }
        if (correlationGroup != null) {
            parts.add("correlation group " + (s.correlationGroup().isEmpty() ? "(none)" : s.correlationGroup()) + " → "
                    + (correlationGroup.isEmpty() ? "(none)" : correlationGroup));
        }
        return "Change subscription " + s.id() + " (" + s.variable() + " at " + s.subscriberRouter() + "/"
                + s.subscriberLink() + "): " + String.join(", ", parts) + ". Everything else stays. If the broker "
                + "cannot admit the change, the subscription stays as it is.";
    }
}
