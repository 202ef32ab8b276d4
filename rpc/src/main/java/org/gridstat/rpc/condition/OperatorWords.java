package org.gridstat.rpc.condition;

import java.math.BigDecimal;

/** Numbers and durations in a verdict's explanation, as an operator reads them: "0", "340 ms". */
final class OperatorWords {
    private OperatorWords() {
    }

    static String noSample(String variable) {
        return "no sample of " + variable + " yet";
    }

    /** Whole values without a trailing ".0" (a breaker state reads "0", not "0.0"). */
    static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return Double.toString(v);
    }

    /** In the largest unit it reaches, exactly: "340 ms", "1.5 s", "250 us", "7 ns". */
    static String duration(long nanos) {
        long magnitude = nanos == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(nanos);
        int shift;
        String unit;
        if (magnitude >= 1_000_000_000L) {
            shift = 9;
            unit = " s";
        } else if (magnitude >= 1_000_000L) {
            shift = 6;
            unit = " ms";
        } else if (magnitude >= 1_000L) {
            shift = 3;
            unit = " us";
        } else {
            return nanos + " ns";
        }
        return BigDecimal.valueOf(nanos).movePointLeft(shift).stripTrailingZeros().toPlainString() + unit;
    }
}
