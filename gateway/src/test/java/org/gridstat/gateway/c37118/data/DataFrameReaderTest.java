package org.gridstat.gateway.c37118.data;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import org.gridstat.gateway.c37118.AnnexFrames;
import org.gridstat.gateway.c37118.SampleConfigs;
import org.gridstat.gateway.c37118.config.Config3Frame;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.ConfigFrameCodec;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.frame.FracSec;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.c37118.frame.FrameType;
import org.junit.jupiter.api.Test;

class DataFrameReaderTest {
    private final DataFrameReader reader = new DataFrameReader();
    private final DataFrameWriter writer = new DataFrameWriter();

    private static DataLayout annexLayout(String config) {
        byte[] f = AnnexFrames.bytes(config);
        return DataLayout.of(new ConfigFrameCodec().decode(ByteBuffer.wrap(f), 0, f.length).frame());
    }

    @Test
    void readsTheAnnexDataFrame() {
        DataLayout layout = annexLayout(AnnexFrames.CONFIG_2_ONE_PMU);
        byte[] f = AnnexFrames.bytes(AnnexFrames.DATA_ONE_PMU);
        assertEquals(f.length, layout.frameSize());
        assertEquals(FrameReject.NONE, reader.wrap(layout, ByteBuffer.wrap(f), 0, f.length));
        assertEquals(1_149_580_800L, reader.soc());
        assertEquals(16_817, FracSec.fraction(reader.fracSec()));
        assertEquals(16_817_000L, reader.fractionNanos());
        assertEquals(0, reader.stat(0));
        assertEquals(14635, reader.phasorFirstRaw(0, 0));
        assertEquals(0, reader.phasorSecondRaw(0, 0));
        assertEquals(-7318, (short) reader.phasorFirstRaw(0, 1));
        assertEquals(-12676, (short) reader.phasorSecondRaw(0, 1));
        assertEquals(14635 * 9.15527, reader.phasorReal(0, 0), 1e-6, "VA in volts: PHUNIT 915527 × 10^-5");
        assertEquals(0.0, reader.phasorAngle(0, 0), 1e-12);
        assertEquals(Math.toRadians(-120), reader.phasorAngle(0, 1), 1e-3);
        assertEquals(Math.toRadians(120), reader.phasorAngle(0, 2), 1e-3);
        assertEquals(1092 * 0.45776, reader.phasorMagnitude(0, 3), 1e-9, "I1 in amperes");
        assertEquals(2500, reader.frequencyRaw(0));
        assertEquals(62.5, reader.frequency(0), 1e-12, "60 Hz + 2500 mHz");
        assertEquals(0.0, reader.rocof(0));
        assertEquals(100.0, reader.analog(0, 0));
        assertEquals(1000.0, reader.analog(0, 1));
        assertEquals(10000.0, reader.analog(0, 2));
        assertEquals(0x3C12, reader.digital(0, 0));
    }

    @Test
    void readsTheAnnexFrameOfTwoPmus() {
        DataLayout layout = annexLayout(AnnexFrames.CONFIG_2_TWO_PMUS);
        byte[] f = AnnexFrames.bytes(AnnexFrames.DATA_TWO_PMUS);
        assertEquals(FrameReject.NONE, reader.wrap(layout, ByteBuffer.wrap(f), 0, f.length));
        assertEquals(2, reader.pmuCount());
        for (int p = 0; p < 2; p++) {
            assertEquals(14635, reader.phasorFirstRaw(p, 0));
            assertEquals(62.5, reader.frequency(p), 1e-12);
            assertEquals(0x3C12, reader.digital(p, 0));
        }
    }

    @Test
    void reencodesTheAnnexFramesBitForBit() {
        assertArrayEquals(AnnexFrames.bytes(AnnexFrames.DATA_ONE_PMU), copy(annexLayout(AnnexFrames.CONFIG_2_ONE_PMU),
                AnnexFrames.bytes(AnnexFrames.DATA_ONE_PMU)));
        assertArrayEquals(AnnexFrames.bytes(AnnexFrames.DATA_TWO_PMUS), copy(annexLayout(AnnexFrames.CONFIG_2_TWO_PMUS),
                AnnexFrames.bytes(AnnexFrames.DATA_TWO_PMUS)));
    }

    /** Reads a frame and writes every field raw into a fresh buffer (at an offset, in a little-endian view). */
    private byte[] copy(DataLayout layout, byte[] frame) {
        assertEquals(FrameReject.NONE, reader.wrap(layout, ByteBuffer.wrap(frame), 0, frame.length));
        ByteBuffer out = ByteBuffer.allocate(frame.length + 7).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        writer.wrap(layout, out, 7, reader.version(), reader.soc(), reader.fracSec());
        for (int p = 0; p < reader.pmuCount(); p++) {
            writer.stat(p, reader.stat(p));
            for (int i = 0; i < layout.phasorCount(p); i++) {
                writer.phasor(p, i, reader.phasorFirstRaw(p, i), reader.phasorSecondRaw(p, i));
            }
            writer.frequency(p, reader.frequencyRaw(p)).rocof(p, reader.rocofRaw(p));
            for (int i = 0; i < layout.analogCount(p); i++) {
                writer.analog(p, i, reader.analogRaw(p, i));
            }
            for (int i = 0; i < layout.digitalCount(p); i++) {
                writer.digital(p, i, reader.digital(p, i));
            }
        }
        assertEquals(frame.length, writer.seal());
        return java.util.Arrays.copyOfRange(out.array(), 7, 7 + frame.length);
    }

    @Test
    void roundTripsEveryFormatVersionAndSeveralPmusBitForBit() {
        Random random = new Random(42);
        for (int version = 1; version <= 2; version++) {
            for (int format = 0; format < 16; format++) {
                ConfigFrame config = SampleConfigs.config(FrameType.CONFIG_2, version, 77, List.of(
                        SampleConfigs.pmu(77, new DataFormat(format), 3, 2, 2, NominalFrequency.HZ_60),
                        SampleConfigs.pmu(78, new DataFormat(15 - format), 1, 0, 0, NominalFrequency.HZ_50),
                        SampleConfigs.pmu(79, new DataFormat(format), 0, 3, 1, NominalFrequency.HZ_60)), 60);
                DataLayout layout = DataLayout.of(config);
                for (int trial = 0; trial < 20; trial++) {
                    byte[] frame = randomFrame(layout, version, random);
                    assertArrayEquals(frame, copy(layout, frame));
                }
            }
        }
    }

    /** A frame with random values in every field, NaN payloads and 0x8000 "missing" words included. */
    private byte[] randomFrame(DataLayout layout, int version, Random random) {
        ByteBuffer b = ByteBuffer.allocate(layout.frameSize());
        writer.wrap(layout, b, 0, version, random.nextInt() & 0xFFFF_FFFFL, random.nextInt());
        for (int p = 0; p < layout.pmuCount(); p++) {
            writer.stat(p, random.nextInt());
            for (int i = 0; i < layout.phasorCount(p); i++) {
                writer.phasor(p, i, pick(random), pick(random));
            }
            writer.frequency(p, pick(random)).rocof(p, pick(random));
            for (int i = 0; i < layout.analogCount(p); i++) {
                writer.analog(p, i, pick(random));
            }
            for (int i = 0; i < layout.digitalCount(p); i++) {
                writer.digital(p, i, random.nextInt());
            }
        }
        writer.seal();
        return b.array();
    }

    private static int pick(Random random) {
        return switch (random.nextInt(5)) {
            case 0 -> 0x7FA0_0001; // a signalling NaN
            case 1 -> 0x8000;
            case 2 -> 0xFFFF_FFFF;
            default -> random.nextInt();
        };
    }

    @Test
    void integerPolarPhasorsHaveAnUnsignedMagnitudeAndAnAngleInTenThousandthsOfARadian() {
        DataLayout layout = DataLayout.of(SampleConfigs.config(DataFormat.of(true, false, false, false)));
        ByteBuffer b = ByteBuffer.allocate(layout.frameSize());
        writer.wrap(layout, b, 0, 2, 0, 0).phasor(0, 0, 60_000, (short) -31_416).seal();
        assertEquals(FrameReject.NONE, reader.wrap(layout, b, 0, b.capacity()));
        assertEquals(60_000 * 9.15527, reader.phasorMagnitude(0, 0), 1e-6);
        assertEquals(-3.1416, reader.phasorAngle(0, 0), 1e-12);
        assertEquals(-60_000 * 9.15527, reader.phasorReal(0, 0), 1e-2);
    }

    @Test
    void floatPhasorsIgnorePhunitAndFloatFrequencyIsInHertz() {
        DataLayout layout = DataLayout.of(SampleConfigs.config(DataFormat.of(false, true, true, true)));
        ByteBuffer b = ByteBuffer.allocate(layout.frameSize());
        writer.wrap(layout, b, 0, 2, 0, 0)
                .phasor(0, 0, Float.floatToRawIntBits(3f), Float.floatToRawIntBits(4f))
                .frequencyHz(0, 59.98).rocofHzPerSecond(0, -0.25)
                .analog(0, 0, Float.floatToRawIntBits(1.5f)).seal();
        assertEquals(FrameReject.NONE, reader.wrap(layout, b, 0, b.capacity()));
        assertEquals(3.0, reader.phasorReal(0, 0));
        assertEquals(4.0, reader.phasorImaginary(0, 0));
        assertEquals(5.0, reader.phasorMagnitude(0, 0), 1e-12);
        assertEquals(59.98f, (float) reader.frequency(0));
        assertEquals(-0.25, reader.rocof(0));
        assertEquals(1.5, reader.analog(0, 0), "float analogs are left as sent");
    }

    @Test
    void integerFrequencyIsDeviationFromNominalAndRocofTimesAHundred() {
        for (NominalFrequency nominal : List.of(NominalFrequency.HZ_50, NominalFrequency.HZ_60)) {
            ConfigFrame c = SampleConfigs.config(FrameType.CONFIG_2, 2, 5,
                    List.of(SampleConfigs.pmu(5, new DataFormat(0), 0, 2, 0, nominal)), 50);
            DataLayout layout = DataLayout.of(c);
            ByteBuffer b = ByteBuffer.allocate(layout.frameSize());
            writer.wrap(layout, b, 0, 2, 0, 0).frequencyHz(0, nominal.hertz() - 0.125).rocofHzPerSecond(0, 1.5)
                    .analog(0, 0, 1000).analog(0, 1, (short) -1000).seal();
            assertEquals(FrameReject.NONE, reader.wrap(layout, b, 0, b.capacity()));
            assertEquals((short) -125, (short) reader.frequencyRaw(0));
            assertEquals(nominal.hertz() - 0.125, reader.frequency(0), 1e-12);
            assertEquals(150, reader.rocofRaw(0));
            assertEquals(1.5, reader.rocof(0), 1e-12);
            assertEquals(3000.0, reader.analog(0, 0), "ANUNIT factor 3");
            assertEquals(2000.0, reader.analog(0, 1), "ANUNIT factor -2");
        }
    }

    @Test
    void config3ScalesEveryPhasorAndAnalog() {
        Config3Frame c = SampleConfigs.config3(DataFormat.of(true, true, false, false));
        DataLayout layout = DataLayout.of(c);
        ByteBuffer b = ByteBuffer.allocate(layout.frameSize());
        writer.wrap(layout, b, 0, 2, SampleConfigs.SOC, FracSec.of(0, 0))
                .phasor(0, 0, Float.floatToRawIntBits(100f), Float.floatToRawIntBits(0.5f))
                .phasor(0, 1, Float.floatToRawIntBits(10f), Float.floatToRawIntBits(0f))
                .analog(0, 0, 40).analog(0, 1, (short) -40).frequency(0, 0).seal();
        assertEquals(FrameReject.NONE, reader.wrap(layout, b, 0, b.capacity()));
        assertEquals(250.0, reader.phasorMagnitude(0, 0), 1e-9, "Y = 2.5");
        assertEquals(0.5, reader.phasorAngle(0, 0), 1e-9, "θ = 0");
        assertEquals(0.1, reader.phasorAngle(0, 1), 1e-7, "θ = 0.1 rad");
        assertEquals(25 * Math.cos(0.1), reader.phasorReal(0, 1), 1e-6);
        assertEquals(20.0, reader.analog(0, 0), 1e-12, "0.5 × 40 + 0");
        assertEquals(-19.0, reader.analog(0, 1), 1e-12, "0.5 × -40 + 1");
        assertEquals(50.0, reader.frequency(0), "FNOM 50 Hz, deviation 0");
        assertEquals(0, reader.fractionNanos(), "FRACSEC 0 is a valid time");
    }

    @Test
    void statBitsAreAllExposed() {
        int stat = StatWord.of(2, true, false, true, false, true, 5, 3, 0x0C);
        assertEquals(2, StatWord.dataError(stat));
        assertTrue(StatWord.syncError(stat));
        assertFalse(StatWord.sortedByArrival(stat));
        assertTrue(StatWord.trigger(stat));
        assertFalse(StatWord.configChange(stat));
        assertTrue(StatWord.dataModified(stat));
        assertEquals(5, StatWord.timeQuality(stat));
        assertEquals(3, StatWord.unlockedTime(stat));
        assertEquals(0x0C, StatWord.triggerReason(stat));
        assertEquals(0xFFFF, StatWord.of(3, true, true, true, true, true, 7, 3, 15));
    }

    @Test
    void refusesFramesThatDoNotFitTheConfiguration() {
        DataLayout layout = annexLayout(AnnexFrames.CONFIG_2_ONE_PMU);
        byte[] two = AnnexFrames.bytes(AnnexFrames.DATA_TWO_PMUS);
        assertEquals(FrameReject.LENGTH_MISMATCH, reader.wrap(layout, ByteBuffer.wrap(two), 0, two.length));
        byte[] cfg = AnnexFrames.bytes(AnnexFrames.CONFIG_2_ONE_PMU);
        assertEquals(FrameReject.WRONG_FRAME_TYPE, reader.wrap(layout, ByteBuffer.wrap(cfg), 0, cfg.length));
        DataLayout other = DataLayout.of(SampleConfigs.config(new DataFormat(0)));
        byte[] one = AnnexFrames.bytes(AnnexFrames.DATA_ONE_PMU);
        assertEquals(FrameReject.UNKNOWN_IDCODE, reader.wrap(other, ByteBuffer.wrap(one), 0, one.length));
        one[30] ^= 1;
        assertEquals(FrameReject.BAD_CRC, reader.wrap(layout, ByteBuffer.wrap(one), 0, one.length));
    }

    @Test
    void readsAFrameInTheMiddleOfABuffer() {
        DataLayout layout = annexLayout(AnnexFrames.CONFIG_2_ONE_PMU);
        byte[] f = AnnexFrames.bytes(AnnexFrames.DATA_ONE_PMU);
        byte[] big = new byte[f.length + 100];
        System.arraycopy(f, 0, big, 33, f.length);
        assertEquals(FrameReject.NONE, reader.wrap(layout, ByteBuffer.wrap(big), 33, f.length));
        assertEquals(0x3C12, reader.digital(0, 0));
    }
}
