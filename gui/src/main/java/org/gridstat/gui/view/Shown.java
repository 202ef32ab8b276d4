package org.gridstat.gui.view;

import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;

/** How the console writes a figure: with its unit, readable at a glance, and "—" for what the broker does not give. */
public final class Shown {
    /** Written where the management API gives no figure. */
    public static final String NONE = "—";

    private Shown() {
    }

    public static String bytesPerSecond(Long b) {
        if (b == null) {
            return NONE;
        }
        double v = b;
        if (Math.abs(v) >= 1e6) {
            return decimal(v / 1e6) + " MB/s";
        }
        if (Math.abs(v) >= 1e3) {
            return decimal(v / 1e3) + " kB/s";
        }
        return b + " B/s";
    }

    /**
     * What bandwidth reassignment moved an assured rate by: "+1.2 kB/s" granted, "−600 B/s" lent,
     * "none".
     */
    public static String reassigned(Long delta) {
        if (delta == null) {
            return NONE;
        }
        return delta == 0 ? "none" : delta > 0 ? "+" + bytesPerSecond(delta) : "−" + bytesPerSecond(-delta);
    }

    /**
     * A latency p99 given in whole microseconds, rounded up by the router: "850 µs", "1.8 ms",
     * "2.3 s"; "≤ 1 µs" for 1 (below the router's 1 µs resolution, as an event sent in the duty
     * cycle it arrived in is); "idle" for 0, a period in which the flow sent nothing (so no latency
     * was measured, which is not a latency of 0).
     */
    public static String latency(Long micros) {
        if (micros == null) {
            return NONE;
        }
        return micros == 0 ? "idle" : micros == 1 ? "≤ 1 µs" : micros((double) micros);
    }

    /** A latency in microseconds, as a chart's axis writes it: "850 µs", "1.8 ms", "2.3 s". */
    public static String micros(double micros) {
        if (Math.abs(micros) >= 1e6) {
            return decimal(micros / 1e6) + " s";
        }
        if (Math.abs(micros) >= 1e3) {
            return decimal(micros / 1e3) + " ms";
        }
        return decimal(micros) + " µs";
    }

    public static String count(Long n) {
        return n == null ? NONE : String.format(Locale.ROOT, "%,d", n);
    }

    public static String hz(double hz) {
        return decimal(hz) + " Hz";
    }

    public static String ms(double ms) {
        return decimal(ms) + " ms";
    }

    public static String percent(double share) {
        return Double.isNaN(share) ? NONE : decimal(share * 100) + " %";
    }

    /** An age: "0.4 s", "12 s", "3 min 5 s". */
    public static String age(long millis) {
        if (millis == Long.MAX_VALUE) {
            return "no data yet";
        }
        if (millis < 10_000) {
            return decimal1(millis / 1000.0) + " s";
        }
        long s = millis / 1000;
        return s < 120 ? s + " s" : s / 60 + " min " + s % 60 + " s";
    }

    public static String decimal(double v) {
        return new DecimalFormat(Math.abs(v) >= 100 ? "0" : Math.abs(v) >= 10 ? "0.#" : "0.##",
                DecimalFormatSymbols.getInstance(Locale.ROOT)).format(v);
    }

    private static String decimal1(double v) {
        return new DecimalFormat("0.0", DecimalFormatSymbols.getInstance(Locale.ROOT)).format(v);
    }
}
