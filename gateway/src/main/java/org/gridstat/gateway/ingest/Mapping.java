package org.gridstat.gateway.ingest;

import java.util.Locale;

/** What a device's PMUs become on the bus. */
public enum Mapping {
    /** One variable per PMU: its whole sample, bit-exact, with its description (what an egress rebuilds C37.118 from). */
    PMU,
    /** One variable per channel of each PMU, in engineering units (for applications that want single values). */
    CHANNELS,
    /** Both. */
    BOTH;

    public boolean pmu() {
        return this != CHANNELS;
    }

    public boolean channels() {
        return this != PMU;
    }

    /** @throws IllegalArgumentException naming the words accepted */
    public static Mapping of(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("mapping '" + text + "' is none of pmu, channels, both");
        }
    }
}
