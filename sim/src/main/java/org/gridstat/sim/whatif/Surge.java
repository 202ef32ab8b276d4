package org.gridstat.sim.whatif;

import java.util.Objects;

/**
 * The stated surge: variable {@code variable}'s publisher publishes at {@code rateHz} from the
 * start of the simulated time on, whatever rate it was declared at. The broker keeps the declared
 * rate (it re-plans only on an alarm), so a surge above it is what congestion control must absorb.
 */
public record Surge(String variable, double rateHz) {
    /** The broker's limits of a publisher's interval: 100 µs .. 1 h. */
    static final long MIN_INTERVAL = 100_000L;
    static final long MAX_INTERVAL = 3_600_000_000_000L;

    public Surge {
        Objects.requireNonNull(variable, "variable");
        if (!(rateHz > 0) || Double.isInfinite(rateHz)) {
            throw new IllegalArgumentException("surge of '" + variable + "': rate must be a positive number of Hz, got " + rateHz);
        }
        long interval = Math.round(1e9 / rateHz);
        if (interval < MIN_INTERVAL || interval > MAX_INTERVAL) {
            throw new IllegalArgumentException("surge of '" + variable + "': " + rateHz
                    + " Hz is outside what a publisher may publish at (1/3600 .. 10,000 Hz)");
        }
    }

    /** The publisher's interval under the surge, rounded to the nanosecond as a scenario's rate is. */
    public long intervalNanos() {
        return Math.round(1e9 / rateHz);
    }
}
