package org.gridstat.core.model;

import java.util.Locale;

/** Durations as operators write them in configuration: {@code 10ms}, {@code 250us}, {@code 2s}, {@code 500ns}. */
public final class DurationText {
    private DurationText() {
    }

    /**
     * @return the duration in nanoseconds
     * @throws IllegalArgumentException if the text has no unit, is not a number or is negative
     */
    public static long nanos(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        long unit;
        if (t.endsWith("ms")) {
            unit = 1_000_000L;
        } else if (t.endsWith("us")) {
            unit = 1_000L;
        } else if (t.endsWith("ns")) {
            unit = 1L;
        } else if (t.endsWith("s")) {
            unit = 1_000_000_000L;
        } else {
            throw new IllegalArgumentException("duration '" + text + "' needs a unit: ms, us, ns or s");
        }
        String number = t.substring(0, t.length() - (unit == 1_000_000_000L ? 1 : 2));
        double value;
        try {
            value = Double.parseDouble(number);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a duration (10ms, 250us, 2s)");
        }
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("duration '" + text + "' must be a non-negative number");
        }
        return Math.round(value * unit);
    }
}
