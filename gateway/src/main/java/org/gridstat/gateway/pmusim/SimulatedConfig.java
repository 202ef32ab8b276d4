package org.gridstat.gateway.pmusim;

import java.util.ArrayList;
import java.util.List;
import org.gridstat.gateway.c37118.config.AnalogUnit;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.DigitalUnit;
import org.gridstat.gateway.c37118.config.PhasorUnit;
import org.gridstat.gateway.c37118.config.PmuConfig;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.frame.ChannelName;
import org.gridstat.gateway.c37118.frame.FrameType;

/**
 * The CFG-2 describing a simulated stream. Integer phasors use the annex example's factors,
 * 9.15527 V and 0.45776 A per count: a 230 kV line's 133 kV phase voltage is about 14,500 counts
 * and a 500 A current about 1,100, well inside 16 bits with room for swings.
 */
final class SimulatedConfig {
    static final int VOLTAGE_FACTOR = 915_527;
    static final int CURRENT_FACTOR = 45_776;
    /** Integer analogs are sent in units of 1. */
    static final int ANALOG_FACTOR = 1;

    private SimulatedConfig() {
    }

    static ConfigFrame config2(PmuSimSpec spec) {
        List<PmuConfig> pmus = new ArrayList<>(spec.pmus().size());
        for (SimulatedPmu p : spec.pmus()) {
            pmus.add(pmu(p, spec.configCount()));
        }
        ConfigFrame cfg = new ConfigFrame(FrameType.CONFIG_2, spec.version(), spec.streamIdCode(), 0, 0, spec.timeBase(),
                pmus, spec.framesPerSecond());
        DataLayout.of(cfg); // refuses a stream whose data frames would not fit 65,535 bytes
        return cfg;
    }

    static ConfigFrame config1(ConfigFrame cfg2) {
        return new ConfigFrame(FrameType.CONFIG_1, cfg2.version(), cfg2.idCode(), cfg2.soc(), cfg2.fracSec(), cfg2.timeBase(),
                cfg2.pmus(), cfg2.dataRate());
    }

    private static PmuConfig pmu(SimulatedPmu p, int configCount) {
        List<ChannelName> phasorNames = new ArrayList<>(p.phasors());
        List<PhasorUnit> phasorUnits = new ArrayList<>(p.phasors());
        for (int i = 0; i < p.phasors(); i++) {
            phasorNames.add(ChannelName.fixed(phasorName(i)));
            phasorUnits.add(WaveformGenerator.isVoltage(i) ? PhasorUnit.voltage(VOLTAGE_FACTOR) : PhasorUnit.current(CURRENT_FACTOR));
        }
        List<ChannelName> analogNames = new ArrayList<>(p.analogs());
        List<AnalogUnit> analogUnits = new ArrayList<>(p.analogs());
        for (int i = 0; i < p.analogs(); i++) {
            analogNames.add(ChannelName.fixed("ANALOG" + (i + 1)));
            analogUnits.add(AnalogUnit.of(i % 3, ANALOG_FACTOR));
        }
        List<ChannelName> digitalNames = new ArrayList<>(16 * p.digitals());
        List<DigitalUnit> digitalUnits = new ArrayList<>(p.digitals());
        for (int w = 0; w < p.digitals(); w++) {
            for (int bit = 0; bit < 16; bit++) {
                digitalNames.add(ChannelName.fixed("BREAKER" + (16 * w + bit + 1)));
            }
            digitalUnits.add(new DigitalUnit(0x0000, 0xFFFF));
        }
        return new PmuConfig(ChannelName.fixed(p.station()), p.idCode(), p.format(), phasorNames, analogNames, digitalNames,
                phasorUnits, analogUnits, digitalUnits, p.nominal(), configCount);
    }

    /** VA, VB, VC, IA, IB, IC, then VA2 ... IC2, VA3 ... */
    static String phasorName(int i) {
        int set = i / 6;
        return (WaveformGenerator.isVoltage(i) ? "V" : "I") + "ABC".charAt(i % 3) + (set == 0 ? "" : String.valueOf(set + 1));
    }
}
