package org.gridstat.gateway.c37118.config;

import java.util.List;
import org.gridstat.gateway.c37118.frame.FrameType;

/**
 * A configuration frame 1 (what the PMU can send) or 2 (what it sends). {@code fracSec} and
 * {@code timeBase} are the raw words (see {@code FracSec}, {@code TimeBase}); {@code dataRate} is
 * signed: above 0 frames per second, below 0 seconds per frame.
 */
public record ConfigFrame(
        FrameType type,
        int version,
        int idCode,
        long soc,
        int fracSec,
        int timeBase,
        List<PmuConfig> pmus,
        int dataRate) {

    public ConfigFrame {
        if (type != FrameType.CONFIG_1 && type != FrameType.CONFIG_2) {
            throw new IllegalArgumentException("CFG-1 or CFG-2, not " + type);
        }
        pmus = List.copyOf(pmus);
        if (pmus.size() > 0xFFFF) {
            throw new IllegalArgumentException("NUM_PMU is 16 bits");
        }
        idCode &= 0xFFFF;
        soc &= 0xFFFF_FFFFL;
        dataRate = (short) dataRate;
    }
}
