package org.gridstat.gateway.c37118;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.gridstat.gateway.c37118.config.AnalogScale;
import org.gridstat.gateway.c37118.config.AnalogUnit;
import org.gridstat.gateway.c37118.config.Config3Frame;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.DigitalUnit;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.config.PhasorScale;
import org.gridstat.gateway.c37118.config.PhasorUnit;
import org.gridstat.gateway.c37118.config.Pmu3Config;
import org.gridstat.gateway.c37118.config.PmuConfig;
import org.gridstat.gateway.c37118.frame.ChannelName;
import org.gridstat.gateway.c37118.frame.FracSec;
import org.gridstat.gateway.c37118.frame.FrameType;

/** Configurations built for tests: any format, any counts, one or several PMUs. */
public final class SampleConfigs {
    public static final long SOC = 1_700_000_000L;

    private SampleConfigs() {
    }

    public static PmuConfig pmu(int idCode, DataFormat format, int phasors, int analogs, int digitals, NominalFrequency nominal) {
        List<ChannelName> phasorNames = new ArrayList<>();
        List<PhasorUnit> phasorUnits = new ArrayList<>();
        for (int i = 0; i < phasors; i++) {
            phasorNames.add(ChannelName.fixed("PH" + i));
            phasorUnits.add(i % 2 == 0 ? PhasorUnit.voltage(915_527) : PhasorUnit.current(45_776));
        }
        List<ChannelName> analogNames = new ArrayList<>();
        List<AnalogUnit> analogUnits = new ArrayList<>();
        for (int i = 0; i < analogs; i++) {
            analogNames.add(ChannelName.fixed("AN" + i));
            analogUnits.add(AnalogUnit.of(i % 3, i == 1 ? -2 : 3));
        }
        List<ChannelName> digitalNames = new ArrayList<>();
        List<DigitalUnit> digitalUnits = new ArrayList<>();
        for (int w = 0; w < digitals; w++) {
            for (int bit = 0; bit < 16; bit++) {
                digitalNames.add(ChannelName.fixed("D" + w + "." + bit));
            }
            digitalUnits.add(new DigitalUnit(0x0000, 0xFFFF));
        }
        return new PmuConfig(ChannelName.fixed("PMU " + idCode), idCode, format, phasorNames, analogNames, digitalNames,
                phasorUnits, analogUnits, digitalUnits, nominal, 7);
    }

    public static ConfigFrame config(FrameType type, int version, int idCode, List<PmuConfig> pmus, int dataRate) {
        return new ConfigFrame(type, version, idCode, SOC, FracSec.of(0, 0), 1_000_000, pmus, dataRate);
    }

    public static ConfigFrame config(DataFormat format) {
        return config(FrameType.CONFIG_2, 2, 60, List.of(pmu(60, format, 3, 2, 1, NominalFrequency.HZ_60)), 30);
    }

    public static Pmu3Config pmu3(int idCode, DataFormat format, int phasors, int analogs, int digitals, NominalFrequency nominal) {
        List<ChannelName> phasorNames = new ArrayList<>();
        List<PhasorScale> phasorScales = new ArrayList<>();
        for (int i = 0; i < phasors; i++) {
            phasorNames.add(ChannelName.prefixed("Phasor " + i + " — Ω"));
            phasorScales.add(PhasorScale.of(i == 0 ? 0 : 0x8100, i % 2 == 0 ? 0x04 : 0x09, 2.5f, i == 0 ? 0f : 0.1f));
        }
        List<ChannelName> analogNames = new ArrayList<>();
        List<AnalogScale> analogScales = new ArrayList<>();
        for (int i = 0; i < analogs; i++) {
            analogNames.add(ChannelName.prefixed("A" + i));
            analogScales.add(AnalogScale.of(0.5f, i));
        }
        List<ChannelName> digitalNames = new ArrayList<>();
        List<DigitalUnit> digitalUnits = new ArrayList<>();
        for (int w = 0; w < digitals; w++) {
            for (int bit = 0; bit < 16; bit++) {
                digitalNames.add(ChannelName.prefixed(bit == 3 ? "" : "Breaker " + w + "." + bit));
            }
            digitalUnits.add(new DigitalUnit(0x00F0, 0xFFFF));
        }
        return new Pmu3Config(ChannelName.prefixed("Substation " + idCode), idCode,
                new UUID(0x0123_4567_89AB_CDEFL, 0xFEDC_BA98_7654_3210L + idCode), format,
                phasorNames, analogNames, digitalNames, phasorScales, analogScales, digitalUnits,
                Float.floatToRawIntBits(46.52f), Float.floatToRawIntBits(6.63f), Float.floatToRawIntBits(Float.POSITIVE_INFINITY),
                'P', 40_000, -1_250, nominal, 3);
    }

    public static Config3Frame config3(DataFormat format) {
        return new Config3Frame(2, 61, SOC, FracSec.of(0, 500_000), 1_000_000,
                List.of(pmu3(61, format, 2, 2, 1, NominalFrequency.HZ_50)), 50);
    }
}
