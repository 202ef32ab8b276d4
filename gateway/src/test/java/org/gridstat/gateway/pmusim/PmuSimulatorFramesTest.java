package org.gridstat.gateway.pmusim;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.util.List;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.ConfigFrameCodec;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.data.DataFrameReader;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.frame.FracSec;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class PmuSimulatorFramesTest {
    private static final long SOC = 1_700_000_000L;
    private static final double PHASE_VOLTAGE = 230e3 / Math.sqrt(3);

    /** int/float × rectangular/polar (phasors, analogs and frequency in the same number format), 50 and 60 Hz. */
    static List<Object[]> formats() {
        List<Object[]> out = new java.util.ArrayList<>();
        for (boolean floats : new boolean[] {false, true}) {
            for (boolean polar : new boolean[] {false, true}) {
                for (NominalFrequency f : List.of(NominalFrequency.HZ_50, NominalFrequency.HZ_60)) {
                    out.add(new Object[] {DataFormat.of(polar, floats, floats, floats), f});
                }
            }
        }
        return out;
    }

    private static PmuSimSpec spec(DataFormat format, NominalFrequency nominal) {
        return new PmuSimSpec(100, 2, 50, 1_000_000, List.of(
                new SimulatedPmu("STATION A", 101, format, 7, 3, 2, nominal)), 5);
    }

    private static double angleBetween(double a, double b) {
        return Math.IEEEremainder(a - b, 2 * Math.PI);
    }

    @ParameterizedTest
    @MethodSource("formats")
    void framesDecodeUnderTheirConfig2ToRealisticValues(DataFormat format, NominalFrequency nominal) {
        PmuSimSpec spec = spec(format, nominal);
        ConfigFrame cfg = PmuSimulator.configFor(spec);
        byte[] cfgBytes = ConfigFrameCodec.encode(cfg);
        assertEquals(cfg, new ConfigFrameCodec().decode(ByteBuffer.wrap(cfgBytes), 0, cfgBytes.length).frame());
        DataLayout layout = DataLayout.of(cfg);
        DataFrameReader r = new DataFrameReader();
        for (int k = 0; k < 50 * 30; k += 7) {
            long soc = SOC + k / 50;
            int fraction = (k % 50) * 20_000;
            byte[] frame = PmuSimulator.dataFrame(spec, cfg, soc, fraction, 0);
            assertEquals(FrameReject.NONE, r.wrap(layout, ByteBuffer.wrap(frame), 0, frame.length), "instant " + k);
            assertEquals(soc, r.soc());
            assertEquals(FracSec.of(0, fraction), r.fracSec(), "time quality 0, fraction on the grid");
            assertEquals(0, r.stat(0));
            for (int v = 0; v < 7; v += 6) {
                assertEquals(PHASE_VOLTAGE, r.phasorMagnitude(0, v), PHASE_VOLTAGE * 0.015, "voltage " + v);
            }
            for (int i = 3; i < 6; i++) {
                assertEquals(400, r.phasorMagnitude(0, i), 400 * 0.27, "current " + i);
            }
            double tolerance = format.floatPhasors() ? 1e-4 : 3e-3;
            assertEquals(-2 * Math.PI / 3, angleBetween(r.phasorAngle(0, 1), r.phasorAngle(0, 0)), tolerance, "VB after VA");
            assertEquals(2 * Math.PI / 3, angleBetween(r.phasorAngle(0, 2), r.phasorAngle(0, 0)), tolerance, "VC before VA");
            assertEquals(-0.3, angleBetween(r.phasorAngle(0, 3), r.phasorAngle(0, 0)), tolerance, "IA lags VA");
            assertEquals(nominal.hertz(), r.frequency(0), 0.01);
            assertTrue(Math.abs(r.rocof(0)) < 0.1, "ROCOF " + r.rocof(0));
            for (int a = 0; a < 3; a++) {
                assertTrue(Math.abs(r.analog(0, a)) <= 1000 * (a + 1) * 1.02, "analog " + a + ": " + r.analog(0, a));
            }
        }
    }

    @Test
    void valuesAreAPureFunctionOfTheInstant() {
        PmuSimSpec spec = spec(DataFormat.of(true, false, false, false), NominalFrequency.HZ_60);
        ConfigFrame cfg = PmuSimulator.configFor(spec);
        byte[] a = PmuSimulator.dataFrame(spec, cfg, SOC, 40_000, 0);
        assertArrayEquals(a, PmuSimulator.dataFrame(spec, cfg, SOC, 40_000, 0));
        assertArrayEquals(a, PmuSimulator.dataFrame(spec, PmuSimulator.configFor(spec), SOC, 40_000, 0));
        assertFalse(java.util.Arrays.equals(a, PmuSimulator.dataFrame(spec, cfg, SOC, 60_000, 0)));
        byte[] flagged = PmuSimulator.dataFrame(spec, cfg, SOC, 40_000, PmuSimulator.CONFIG_CHANGE_BIT);
        DataFrameReader r = new DataFrameReader();
        r.wrap(DataLayout.of(cfg), ByteBuffer.wrap(flagged), 0, flagged.length);
        assertEquals(PmuSimulator.CONFIG_CHANGE_BIT, r.stat(0));
    }

    @Test
    void anglesTurnWithTheFrequencyOffsetAndDigitalsChangeNowAndThen() {
        PmuSimSpec spec = spec(DataFormat.of(true, true, true, true), NominalFrequency.HZ_50);
        ConfigFrame cfg = PmuSimulator.configFor(spec);
        DataLayout layout = DataLayout.of(cfg);
        DataFrameReader r = new DataFrameReader();
        double[] angle = new double[2];
        int[] words = new int[61];
        for (int s = 0; s <= 60; s++) {
            byte[] f = PmuSimulator.dataFrame(spec, cfg, SOC + s, 0, 0);
            r.wrap(layout, ByteBuffer.wrap(f), 0, f.length);
            if (s == 0 || s == 60) {
                angle[s / 60] = r.phasorAngle(0, 0);
            }
            words[s] = r.digital(0, 0);
        }
        // 3 mHz for 60 s is 1.13 rad; the swing adds at most 0.16 rad.
        double turned = Math.IEEEremainder(angle[1] - angle[0], 2 * Math.PI);
        assertTrue(turned > 0.9 && turned < 1.35, "turned " + turned);
        int changes = 0;
        for (int s = 1; s <= 60; s++) {
            if (words[s] != words[s - 1]) {
                changes++;
                assertTrue(Integer.bitCount(words[s] ^ words[s - 1]) <= 2, "a breaker or two at a time");
            }
        }
        assertTrue(changes >= 2 && changes <= 7, "digital word changes in a minute: " + changes);
    }

    @Test
    void config2NamesChannelsAndUsesFactorsThatFitIntegers() {
        PmuSimSpec spec = new PmuSimSpec(7, 1, 30, 3_000_000, List.of(
                new SimulatedPmu("SUB NORTH", 8, DataFormat.of(false, false, false, false), 8, 2, 1, NominalFrequency.HZ_60),
                new SimulatedPmu("SUB SOUTH", 9, DataFormat.of(true, true, true, true), 3, 0, 0, NominalFrequency.HZ_50)), 12);
        ConfigFrame cfg = PmuSimulator.configFor(spec);
        assertEquals(1, cfg.version());
        assertEquals(30, cfg.dataRate());
        assertEquals(3_000_000, cfg.timeBase());
        var north = cfg.pmus().get(0);
        assertEquals("SUB NORTH       ", north.station().text());
        assertEquals(List.of("VA", "VB", "VC", "IA", "IB", "IC", "VA2", "VB2"),
                north.phasorNames().stream().map(n -> n.trimmed()).toList());
        assertEquals("ANALOG2", north.analogNames().get(1).trimmed());
        assertEquals("BREAKER16", north.digitalNames().get(15).trimmed());
        assertFalse(north.phasorUnits().get(0).current());
        assertTrue(north.phasorUnits().get(3).current());
        assertEquals(12, north.configCount());
        assertEquals(NominalFrequency.HZ_50, cfg.pmus().get(1).nominal());
        byte[] f = PmuSimulator.dataFrame(spec, cfg, SOC, 2 * 100_000, 0);
        DataFrameReader r = new DataFrameReader();
        assertEquals(FrameReject.NONE, r.wrap(DataLayout.of(cfg), ByteBuffer.wrap(f), 0, f.length));
        assertEquals(1, r.version());
    }

    @Test
    void refusesATimeBaseOffTheFrameGrid() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new PmuSimSpec(1, 2, 30, 1_000_000,
                List.of(new SimulatedPmu("X", 1, DataFormat.of(false, false, false, false), 1, 0, 0, NominalFrequency.HZ_60)), 0));
        assertTrue(e.getMessage().contains("not a multiple of 30"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SimulatedPmu("A NAME OF 17 CHAR", 1,
                DataFormat.of(false, false, false, false), 1, 0, 0, NominalFrequency.HZ_60));
    }
}
