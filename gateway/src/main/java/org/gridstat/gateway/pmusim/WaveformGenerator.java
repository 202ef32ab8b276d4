package org.gridstat.gateway.pmusim;

import java.util.List;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.PmuConfig;
import org.gridstat.gateway.c37118.data.DataFrameWriter;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.frame.TimeBase;

/**
 * The simulated measurements: a pure function of the PMU, the channel and the instant, so any
 * frame can be rebuilt and checked. They look like a transmission line: phase voltages of
 * 230 kV/√3 within about 1 %, currents of 400 A swinging ±25 % and lagging by 0.3 rad; the system
 * runs a few mHz off nominal and swings, so every angle turns slowly (once in about five minutes)
 * and wobbles; ROCOF carries the measurement noise real PMUs show; analogs swing through both
 * signs; each digital word has one breaker change state every 10 to 26 s. The noise is a hash of
 * the instant, not a random generator, so the same instant always gives the same bits.
 *
 * <p>Periodic terms have whole-second periods and are computed from SOC modulo the period, so the
 * values stay exact however large SOC is.
 */
final class WaveformGenerator {
    /** Phase-to-neutral voltage of a 230 kV line, V. */
    static final double PHASE_VOLTAGE = 230e3 / Math.sqrt(3);
    /** Line current, A. */
    static final double LINE_CURRENT = 400;
    /** The system's steady frequency offset, Hz: angles make a full turn every 333 s. */
    static final double FREQUENCY_OFFSET = 0.003;
    /** The amplitude of the frequency swing, Hz, and its period, s. */
    static final double SWING = 0.004;
    static final int SWING_PERIOD = 20;
    private static final double TWO_PI = 2 * Math.PI;
    private static final double CURRENT_LAG = 0.3;

    private WaveformGenerator() {
    }

    static boolean isVoltage(int phasor) {
        return phasor % 6 < 3;
    }

    /** Writes every PMU's STAT and values for the instant (the writer already wrapped on the frame). */
    static void fill(DataFrameWriter w, DataLayout layout, ConfigFrame cfg, long soc, int fraction, int statBits) {
        double sf = fraction / (double) TimeBase.subdivision(cfg.timeBase());
        List<PmuConfig> pmus = cfg.pmus();
        for (int p = 0; p < pmus.size(); p++) {
            PmuConfig pc = pmus.get(p);
            DataFormat f = pc.format();
            w.stat(p, statBits & 0xFFFF);
            double swing = cycle(soc, sf, SWING_PERIOD) + 0.7 * p;
            double deviation = FREQUENCY_OFFSET + SWING * Math.sin(swing);
            // The angle is 2π times the integral of the frequency deviation: a steady turn and a wobble.
            double turns = (FREQUENCY_OFFSET * soc) % 1.0 + FREQUENCY_OFFSET * sf;
            double systemAngle = TWO_PI * turns - SWING * SWING_PERIOD * Math.cos(swing) - 0.05 * p;
            for (int i = 0; i < pc.phasorCount(); i++) {
                double angle = systemAngle - TWO_PI / 3 * (i % 3) - 0.01 * (i / 6);
                double magnitude;
                if (isVoltage(i)) {
                    magnitude = PHASE_VOLTAGE * (1 + 0.01 * Math.sin(cycle(soc, sf, 30) + p) + 0.001 * noise(soc, fraction, p, i));
                } else {
                    magnitude = LINE_CURRENT * (1 + 0.25 * Math.sin(cycle(soc, sf, 45) + p) + 0.005 * noise(soc, fraction, p, i));
                    angle -= CURRENT_LAG;
                }
                writePhasor(w, p, i, f, pc.phasorUnits().get(i).scale(), magnitude, Math.IEEEremainder(angle, TWO_PI));
            }
            w.frequencyHz(p, pc.nominal().hertz() + deviation + 0.0002 * noise(soc, fraction, p, -1));
            w.rocofHzPerSecond(p, SWING * TWO_PI / SWING_PERIOD * Math.cos(swing) + 0.05 * noise(soc, fraction, p, -2));
            for (int k = 0; k < pc.analogCount(); k++) {
                double amplitude = 1000.0 * (k % 20 + 1);
                double value = amplitude * (Math.sin(cycle(soc, sf, 10 + 5 * (k % 7)) + p) + 0.01 * noise(soc, fraction, p, 1000 + k));
                int raw = f.floatAnalogs() ? Float.floatToRawIntBits((float) value)
                        : clampShort(value / pc.analogUnits().get(k).factor());
                w.analog(p, k, raw);
            }
            for (int d = 0; d < pc.digitalCount(); d++) {
                int period = 10 + d % 17;
                long epoch = Math.floorDiv(soc, period);
                int base = (int) mix(p * 65_537L + d) & 0xFFFF;
                w.digital(p, d, base ^ 1 << (int) Math.floorMod(mix(epoch * 31 + p * 7L + d), 16L));
            }
        }
    }

    private static void writePhasor(DataFrameWriter w, int p, int i, DataFormat f, double scale, double magnitude, double angle) {
        if (f.floatPhasors()) {
            float first = (float) (f.polar() ? magnitude : magnitude * Math.cos(angle));
            float second = (float) (f.polar() ? angle : magnitude * Math.sin(angle));
            w.phasor(p, i, Float.floatToRawIntBits(first), Float.floatToRawIntBits(second));
        } else if (f.polar()) {
            int counts = (int) Math.max(0, Math.min(0xFFFF, Math.round(magnitude / scale)));
            w.phasor(p, i, counts, clampShort(angle * 1e4) & 0xFFFF);
        } else {
            w.phasor(p, i, clampShort(magnitude * Math.cos(angle) / scale) & 0xFFFF,
                    clampShort(magnitude * Math.sin(angle) / scale) & 0xFFFF);
        }
    }

    /** The phase, in radians, of a cycle of {@code period} whole seconds at the instant. */
    private static double cycle(long soc, double secondFraction, int period) {
        return TWO_PI * (Math.floorMod(soc, (long) period) + secondFraction) / period;
    }

    private static int clampShort(double v) {
        return (int) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.round(v)));
    }

    /** Deterministic noise in [-1, 1) for one channel at one instant. */
    static double noise(long soc, int fraction, int pmu, int channel) {
        long h = mix(mix(soc * 0x9E37_79B9L + fraction) ^ (pmu * 0x1_0000_0001L + channel));
        return (h >>> 11) * 0x1.0p-52 - 1.0;
    }

    /** SplitMix64's finaliser: a well-spread hash of a long. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }
}
