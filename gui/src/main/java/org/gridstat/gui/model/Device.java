package org.gridstat.gui.model;

import java.util.Map;

/**
 * A device a phasor gateway reads, as the gateway last reported it ({@code GET /devices}): its
 * session state, health ({@code good}, {@code alarm}, {@code stale}, {@code bad}), STAT bits and
 * time quality of the last data frame ({@code null} before the first), counters and framing rejects.
 */
public record Device(String name, String state, String health, Integer configCount, Integer dataRateHz,
                     Integer timeQualityCode, boolean leapPending, Long lastDataAgeMs, Integer dataError,
                     Boolean syncError, Map<String, Long> counters, Map<String, Long> rejects) {
    public Device {
        counters = Map.copyOf(counters);
        rejects = Map.copyOf(rejects);
    }
}
