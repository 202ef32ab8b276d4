package org.gridstat.gateway.c37118.config;

import java.util.List;
import java.util.UUID;
import org.gridstat.gateway.c37118.frame.ChannelName;

/**
 * One PMU's part of a CFG-3 frame. Names are length-prefixed UTF-8, digital names 16 per word.
 * Latitude, longitude and elevation are floats kept as their bits (the standard sends +infinity
 * for an unknown place); {@code serviceClass} is one ASCII byte ('M' or 'P'); window and group
 * delay are signed microseconds.
 */
public record Pmu3Config(
        ChannelName station,
        int idCode,
        UUID globalId,
        DataFormat format,
        List<ChannelName> phasorNames,
        List<ChannelName> analogNames,
        List<ChannelName> digitalNames,
        List<PhasorScale> phasorScales,
        List<AnalogScale> analogScales,
        List<DigitalUnit> digitalUnits,
        int latitudeBits,
        int longitudeBits,
        int elevationBits,
        int serviceClass,
        int window,
        int groupDelay,
        NominalFrequency nominal,
        int configCount) {

    public Pmu3Config {
        phasorNames = List.copyOf(phasorNames);
        analogNames = List.copyOf(analogNames);
        digitalNames = List.copyOf(digitalNames);
        phasorScales = List.copyOf(phasorScales);
        analogScales = List.copyOf(analogScales);
        digitalUnits = List.copyOf(digitalUnits);
        idCode &= 0xFFFF;
        serviceClass &= 0xFF;
        configCount &= 0xFFFF;
        if (station.length() > ChannelName.MAX_PREFIXED_LENGTH
                || phasorNames.stream().anyMatch(n -> n.length() > ChannelName.MAX_PREFIXED_LENGTH)
                || analogNames.stream().anyMatch(n -> n.length() > ChannelName.MAX_PREFIXED_LENGTH)
                || digitalNames.stream().anyMatch(n -> n.length() > ChannelName.MAX_PREFIXED_LENGTH)) {
            throw new IllegalArgumentException("CFG-3 names hold at most 255 bytes");
        }
        if (phasorScales.size() != phasorNames.size() || analogScales.size() != analogNames.size()
                || digitalNames.size() != 16 * digitalUnits.size() || phasorScales.size() > 0xFFFF
                || analogScales.size() > 0xFFFF || digitalUnits.size() > 0xFFFF) {
            throw new IllegalArgumentException("a scale per phasor and analog, a mask pair per digital word and 16 names per word");
        }
    }

    public int phasorCount() {
        return phasorScales.size();
    }

    public int analogCount() {
        return analogScales.size();
    }

    public int digitalCount() {
        return digitalUnits.size();
    }

    public float latitude() {
        return Float.intBitsToFloat(latitudeBits);
    }

    public float longitude() {
        return Float.intBitsToFloat(longitudeBits);
    }

    public float elevation() {
        return Float.intBitsToFloat(elevationBits);
    }
}
