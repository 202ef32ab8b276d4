package org.gridstat.gateway.device;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.gridstat.gateway.c37118.config.AnalogScale;
import org.gridstat.gateway.c37118.config.AnalogUnit;
import org.gridstat.gateway.c37118.config.Config3Frame;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.PhasorScale;
import org.gridstat.gateway.c37118.config.PhasorUnit;
import org.gridstat.gateway.c37118.config.Pmu3Config;
import org.gridstat.gateway.c37118.config.PmuConfig;
import org.gridstat.gateway.c37118.frame.ChannelName;
import org.gridstat.gateway.c37118.frame.CommonHeader;

/**
 * A CFG-3 for a stream that only has a CFG-2, so a 2011 client asking for CFG-3 gets an answer
 * that reads the same data frames to the same values. CFG-3 carries what CFG-2 does not know
 * (global PMU id, location, filter window and delay); those are sent as "unknown": a zero id,
 * +infinity for latitude, longitude and elevation, window and group delay 0, service class P.
 *
 * <p>Scales: an integer phasor's PHUNIT factor is in 10^-5 V or A per count, so Y = factor ×
 * 10^-5; float phasors are already in volts or amperes (Y = 1). Integer analogs scale by the
 * ANUNIT factor (M = factor), float analogs as sent (M = 1); B and θ are 0. The phasor type byte
 * says voltage or current only: CFG-2 does not say which phase or sequence a phasor is, so the
 * component bits are left 0.
 */
public final class Config3FromConfig2 {
    private static final UUID UNKNOWN_GLOBAL_ID = new UUID(0, 0);
    private static final int UNKNOWN_PLACE = Float.floatToRawIntBits(Float.POSITIVE_INFINITY);
    private static final int CURRENT_TYPE_BIT = 0x08;
    private static final int SERVICE_CLASS_P = 'P';

    private Config3FromConfig2() {
    }

    public static Config3Frame derive(ConfigFrame cfg2) {
        List<Pmu3Config> pmus = new ArrayList<>(cfg2.pmus().size());
        for (PmuConfig p : cfg2.pmus()) {
            pmus.add(derive(p));
        }
        return new Config3Frame(CommonHeader.VERSION_2011, cfg2.idCode(), cfg2.soc(), cfg2.fracSec(), cfg2.timeBase(),
                pmus, cfg2.dataRate());
    }

    private static Pmu3Config derive(PmuConfig p) {
        boolean floatPhasors = p.format().floatPhasors();
        List<PhasorScale> phasorScales = new ArrayList<>(p.phasorCount());
        for (PhasorUnit u : p.phasorUnits()) {
            float y = floatPhasors ? 1.0f : (float) (u.factor() * 1e-5);
            phasorScales.add(PhasorScale.of(0, u.current() ? CURRENT_TYPE_BIT : 0, y, 0f));
        }
        boolean floatAnalogs = p.format().floatAnalogs();
        List<AnalogScale> analogScales = new ArrayList<>(p.analogCount());
        for (AnalogUnit u : p.analogUnits()) {
            analogScales.add(AnalogScale.of(floatAnalogs ? 1.0f : u.factor(), 0f));
        }
        return new Pmu3Config(unpadded(p.station()), p.idCode(), UNKNOWN_GLOBAL_ID, p.format(),
                unpadded(p.phasorNames()), unpadded(p.analogNames()), unpadded(p.digitalNames()),
                phasorScales, analogScales, p.digitalUnits(),
                UNKNOWN_PLACE, UNKNOWN_PLACE, UNKNOWN_PLACE, SERVICE_CLASS_P, 0, 0, p.nominal(), p.configCount());
    }

    private static List<ChannelName> unpadded(List<ChannelName> names) {
        return names.stream().map(Config3FromConfig2::unpadded).toList();
    }

    /** The name's bytes without trailing spaces; bytes, not text, so a non-ASCII name is kept as sent. */
    private static ChannelName unpadded(ChannelName name) {
        byte[] b = name.bytes();
        int end = b.length;
        while (end > 0 && b[end - 1] == ' ') {
            end--;
        }
        return ChannelName.ofBytes(Arrays.copyOf(b, end));
    }
}
