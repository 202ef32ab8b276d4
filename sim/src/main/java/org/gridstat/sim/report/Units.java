package org.gridstat.sim.report;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Figures as the outputs print them: fixed decimals, a point, no grouping, whatever the locale, so
 * the same run gives the same bytes.
 */
final class Units {
    private Units() {
    }

    /** Nanoseconds as seconds with 6 decimals: {@code 1.500000}. */
    static String seconds(long nanos) {
        return BigDecimal.valueOf(nanos, 9).setScale(6, RoundingMode.HALF_UP).toPlainString();
    }

    /** Nanoseconds as milliseconds with 3 decimals: {@code 7.304}. */
    static String millis(long nanos) {
        return BigDecimal.valueOf(nanos, 6).setScale(3, RoundingMode.HALF_UP).toPlainString();
    }

    /** {@code part} of {@code whole} in percent with 2 decimals; empty when {@code whole} is 0. */
    static String percent(long part, long whole) {
        if (whole == 0) {
            return "";
        }
        return BigDecimal.valueOf(part).multiply(BigDecimal.valueOf(100))
                .divide(BigDecimal.valueOf(whole), 2, RoundingMode.HALF_UP).toPlainString();
    }

    /** {@code count} events over {@code nanos} as events per second with 3 decimals. */
    static String perSecond(long count, long nanos) {
        if (nanos <= 0) {
            return "";
        }
        return BigDecimal.valueOf(count).multiply(BigDecimal.valueOf(1_000_000_000L))
                .divide(BigDecimal.valueOf(nanos), 3, RoundingMode.HALF_UP).toPlainString();
    }
}
