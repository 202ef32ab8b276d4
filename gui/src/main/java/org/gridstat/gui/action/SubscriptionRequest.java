package org.gridstat.gui.action;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A subscription an operator asks for, checked in the console against the limits the broker
 * enforces (docs/management-api.md, "What a request may hold"), so a mistyped form is caught
 * before anything is sent; the broker still decides admission.
 */
public record SubscriptionRequest(String variable, String router, String link, double rateHz, double latencyBoundMs,
                                  int paths, String serviceClass, String correlationGroup) {
    static final Pattern VARIABLE = Pattern.compile("[A-Za-z0-9_.\\-]+(/[A-Za-z0-9_.\\-]+)*");
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9._\\-]{1,64}");
    static final Pattern GROUP = Pattern.compile("[A-Za-z0-9_.\\-/]{0,128}");
    /** A rate's interval must lie within 1 ms and 1 h. */
    static final double MAX_RATE_HZ = 1000;
    static final double MIN_RATE_HZ = 1.0 / 3600;
    public static final List<String> CLASSES = List.of("HRT", "LRT", "BE");

    /** A form's fields checked: the request, or every problem found. */
    public record Checked(SubscriptionRequest request, List<String> problems) {
        public boolean ok() {
            return problems.isEmpty();
        }
    }

    /**
     * Checks a form's text fields.
     *
     * @param routers the topology's routers (empty: not known yet, not checked)
     */
    public static Checked check(String variable, String router, String link, String rate, String bound, String paths,
                                String serviceClass, String group, Collection<String> routers) {
        List<String> problems = new ArrayList<>();
        String v = trim(variable);
        if (v.isEmpty() || v.length() > 255 || !VARIABLE.matcher(v).matches()) {
            problems.add("variable: 1 to 255 characters, segments of letters, digits, '_', '-', '.' separated by '/'");
        }
        String r = trim(router);
        if (!NAME.matcher(r).matches()) {
            problems.add("router: 1 to 64 letters, digits, '.', '_', '-'");
        } else if (!routers.isEmpty() && !routers.contains(r)) {
            problems.add("router: '" + r + "' is not a router of the topology");
        }
        String l = trim(link);
        if (!NAME.matcher(l).matches()) {
            problems.add("link: 1 to 64 letters, digits, '.', '_', '-'");
        }
        double hz = number(rate, "rate", problems);
        if (!Double.isNaN(hz) && (hz < MIN_RATE_HZ || hz > MAX_RATE_HZ)) {
            problems.add("rate: between 1 per hour and 1000 Hz (an interval of 1 ms to 1 h)");
        }
        double ms = number(bound, "latency bound", problems);
        if (!Double.isNaN(ms) && (ms < 1 || ms > 60_000)) {
            problems.add("latency bound: 1 ms to 60,000 ms");
        }
        int p = 0;
        try {
            p = Integer.parseInt(trim(paths));
            if (p < 1 || p > 4) {
                problems.add("paths: 1 to 4 disjoint paths");
            }
        } catch (NumberFormatException e) {
            problems.add("paths: a whole number, 1 to 4");
        }
        String c = trim(serviceClass).toUpperCase(Locale.ROOT);
        if (!CLASSES.contains(c)) {
            problems.add("class: HRT, LRT or BE");
        }
        String g = trim(group);
        if (!GROUP.matcher(g).matches()) {
            problems.add("correlation group: at most 128 letters, digits, '_', '-', '.', '/'");
        }
        return new Checked(problems.isEmpty() ? new SubscriptionRequest(v, r, l, hz, ms, p, c, g) : null,
                List.copyOf(problems));
    }

    static double number(String text, String field, List<String> problems) {
        try {
            double d = Double.parseDouble(trim(text));
            if (Double.isFinite(d)) {
                return d;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problems.add(field + ": a number");
        return Double.NaN;
    }

    static String trim(String s) {
        return s == null ? "" : s.strip();
    }

    /** What admitting it changes, in the operator's words: the confirmation's text. */
    public String describe() {
        return "Admit a subscription to " + variable + ", delivered at " + router + " over its link " + link + ": "
                + Figures.hz(rateHz) + ", latency bound " + Figures.ms(latencyBoundMs) + ", " + paths + " disjoint path"
                + (paths == 1 ? "" : "s") + ", class " + serviceClass
                + (correlationGroup.isEmpty() ? "" : ", correlation group " + correlationGroup)
                + ". The broker reserves bandwidth for it on every link of its paths and installs its flows in the routers.";
    }
}
