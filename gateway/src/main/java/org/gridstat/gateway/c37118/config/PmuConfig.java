package org.gridstat.gateway.c37118.config;

import java.util.List;
import org.gridstat.gateway.c37118.frame.ChannelName;

/**
 * One PMU's part of a CFG-1 or CFG-2 frame. The counts PHNMR, ANNMR and DGNMR are the sizes of the
 * lists; digital channel names are 16 per digital word, bit 0 first.
 */
public record PmuConfig(
        ChannelName station,
        int idCode,
        DataFormat format,
        List<ChannelName> phasorNames,
        List<ChannelName> analogNames,
        List<ChannelName> digitalNames,
        List<PhasorUnit> phasorUnits,
        List<AnalogUnit> analogUnits,
        List<DigitalUnit> digitalUnits,
        NominalFrequency nominal,
        int configCount) {

    public PmuConfig {
        phasorNames = List.copyOf(phasorNames);
        analogNames = List.copyOf(analogNames);
        digitalNames = List.copyOf(digitalNames);
        phasorUnits = List.copyOf(phasorUnits);
        analogUnits = List.copyOf(analogUnits);
        digitalUnits = List.copyOf(digitalUnits);
        idCode &= 0xFFFF;
        configCount &= 0xFFFF;
        if (station.length() != ChannelName.FIXED_LENGTH
                || phasorNames.stream().anyMatch(n -> n.length() != ChannelName.FIXED_LENGTH)
                || analogNames.stream().anyMatch(n -> n.length() != ChannelName.FIXED_LENGTH)
                || digitalNames.stream().anyMatch(n -> n.length() != ChannelName.FIXED_LENGTH)) {
            throw new IllegalArgumentException("CFG-1/2 names are 16 bytes");
        }
        if (phasorUnits.size() != phasorNames.size() || analogUnits.size() != analogNames.size()
                || digitalNames.size() != 16 * digitalUnits.size() || phasorUnits.size() > 0xFFFF
                || analogUnits.size() > 0xFFFF || digitalUnits.size() > 0xFFFF) {
            throw new IllegalArgumentException("a unit per phasor and analog, a mask pair per digital word and 16 names per word");
        }
    }

    public int phasorCount() {
        return phasorUnits.size();
    }

    public int analogCount() {
        return analogUnits.size();
    }

    public int digitalCount() {
        return digitalUnits.size();
    }
}
