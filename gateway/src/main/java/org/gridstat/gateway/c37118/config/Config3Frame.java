package org.gridstat.gateway.c37118.config;

import java.util.List;

/**
 * A configuration frame 3 (2011 only), whole: when a PMU splits it across several frames
 * ({@code CONT_IDX}), {@link Config3Assembler} joins them first. Raw FRACSEC and TIME_BASE words;
 * {@code dataRate} signed as in CFG-2.
 */
public record Config3Frame(
        int version,
        int idCode,
        long soc,
        int fracSec,
        int timeBase,
        List<Pmu3Config> pmus,
        int dataRate) {

    public Config3Frame {
        pmus = List.copyOf(pmus);
        if (pmus.size() > 0xFFFF) {
            throw new IllegalArgumentException("NUM_PMU is 16 bits");
        }
        idCode &= 0xFFFF;
        soc &= 0xFFFF_FFFFL;
        dataRate = (short) dataRate;
    }
}
