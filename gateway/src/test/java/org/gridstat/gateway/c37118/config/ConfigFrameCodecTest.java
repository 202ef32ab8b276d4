package org.gridstat.gateway.c37118.config;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.gridstat.gateway.c37118.AnnexFrames;
import org.gridstat.gateway.c37118.SampleConfigs;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.Decoded;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.c37118.frame.FrameType;
import org.junit.jupiter.api.Test;

class ConfigFrameCodecTest {
    private final ConfigFrameCodec codec = new ConfigFrameCodec();

    private Decoded<ConfigFrame> decode(byte[] f) {
        return codec.decode(ByteBuffer.wrap(f), 0, f.length);
    }

    @Test
    void decodesTheAnnexConfigurationFieldByField() {
        ConfigFrame c = decode(AnnexFrames.bytes(AnnexFrames.CONFIG_2_ONE_PMU)).frame();
        assertEquals(FrameType.CONFIG_2, c.type());
        assertEquals(1, c.version());
        assertEquals(7734, c.idCode());
        assertEquals(1_149_577_200L, c.soc());
        assertEquals(1_000_000, c.timeBase());
        assertEquals(30, c.dataRate());
        PmuConfig p = c.pmus().get(0);
        assertEquals("Station A", p.station().trimmed());
        assertEquals(7734, p.idCode());
        assertEquals(DataFormat.of(false, false, true, false), p.format());
        assertEquals(4, p.phasorCount());
        assertEquals(3, p.analogCount());
        assertEquals(1, p.digitalCount());
        assertEquals(List.of("VA", "VB", "VC", "I1"), p.phasorNames().stream().map(n -> n.trimmed()).toList());
        assertEquals("ANALOG3", p.analogNames().get(2).trimmed());
        assertEquals(16, p.digitalNames().size());
        assertEquals("BREAKER G STATUS", p.digitalNames().get(15).trimmed());
        assertFalse(p.phasorUnits().get(0).current());
        assertEquals(915_527, p.phasorUnits().get(0).factor());
        assertEquals(9.15527, p.phasorUnits().get(0).scale(), 1e-12);
        assertTrue(p.phasorUnits().get(3).current());
        assertEquals(45_776, p.phasorUnits().get(3).factor());
        assertEquals(List.of(AnalogUnit.POINT_ON_WAVE, AnalogUnit.RMS, AnalogUnit.PEAK),
                p.analogUnits().stream().map(AnalogUnit::kind).toList());
        assertEquals(1, p.analogUnits().get(2).factor());
        assertEquals(new DigitalUnit(0x0000, 0xFFFF), p.digitalUnits().get(0));
        assertEquals(60, p.nominal().hertz());
        assertEquals(22, p.configCount());
    }

    @Test
    void reencodesTheAnnexConfigurationsBitForBit() {
        for (String hex : List.of(AnnexFrames.CONFIG_2_ONE_PMU, AnnexFrames.CONFIG_2_TWO_PMUS)) {
            byte[] f = AnnexFrames.bytes(hex);
            ConfigFrame c = decode(f).frame();
            assertArrayEquals(f, ConfigFrameCodec.encode(c));
        }
        assertEquals(2, decode(AnnexFrames.bytes(AnnexFrames.CONFIG_2_TWO_PMUS)).frame().pmus().size());
    }

    @Test
    void roundTripsConfig1And2InBothVersionsAndEveryFormat() {
        for (FrameType type : List.of(FrameType.CONFIG_1, FrameType.CONFIG_2)) {
            for (int version = 1; version <= 2; version++) {
                for (int format = 0; format < 16; format++) {
                    ConfigFrame c = SampleConfigs.config(type, version, 9, List.of(
                            SampleConfigs.pmu(9, new DataFormat(format), 3, 2, 2, NominalFrequency.HZ_50),
                            SampleConfigs.pmu(10, new DataFormat(15 - format), 0, 0, 0, NominalFrequency.HZ_60)), -5);
                    byte[] f = ConfigFrameCodec.encode(c);
                    assertEquals(f.length, ConfigFrameCodec.encodedSize(c));
                    assertEquals(c, decode(f).frame());
                }
            }
        }
    }

    @Test
    void keepsNominalFrequencyNegativeRateAndReservedBits() {
        ConfigFrame c = SampleConfigs.config(FrameType.CONFIG_2, 2, 1, List.of(
                SampleConfigs.pmu(1, new DataFormat(0xFFF0 | 5), 1, 1, 0, new NominalFrequency(0x8001))), -10);
        ConfigFrame back = decode(ConfigFrameCodec.encode(c)).frame();
        assertEquals(-10, back.dataRate());
        assertEquals(50, back.pmus().get(0).nominal().hertz());
        assertEquals(0x8001, back.pmus().get(0).nominal().raw());
        assertEquals(0xFFF5, back.pmus().get(0).format().raw());
    }

    @Test
    void analogFactorIsSigned() {
        assertEquals(-2, AnalogUnit.of(1, -2).factor());
        assertEquals(1, AnalogUnit.of(1, -2).kind());
        assertEquals(0x7FFFFF, AnalogUnit.of(0, 0x7FFFFF).factor());
        assertEquals(-0x800000, AnalogUnit.of(0, 0x800000).factor());
    }

    @Test
    void timeBaseOfTwentyFourBitsAndFlags() {
        ConfigFrame c = new ConfigFrame(FrameType.CONFIG_2, 2, 1, 0, 0, 0xAB_FFFFFF,
                List.of(SampleConfigs.pmu(1, new DataFormat(0), 1, 0, 0, NominalFrequency.HZ_60)), 1);
        assertEquals(0xAB_FFFFFF, decode(ConfigFrameCodec.encode(c)).frame().timeBase());
    }

    @Test
    void refusesAZeroTimeBase() {
        ConfigFrame c = new ConfigFrame(FrameType.CONFIG_2, 2, 1, 0, 0, 0xFF00_0000,
                List.of(SampleConfigs.pmu(1, new DataFormat(0), 1, 0, 0, NominalFrequency.HZ_60)), 1);
        assertEquals(FrameReject.MALFORMED_BODY, decode(ConfigFrameCodec.encode(c)).reject());
    }

    @Test
    void refusesCountsThatOverrunTheFrame() {
        byte[] f = AnnexFrames.bytes(AnnexFrames.CONFIG_2_ONE_PMU);
        ByteBuffer b = ByteBuffer.wrap(f);
        b.putShort(CommonHeader.LENGTH + 4 + 2 + 16 + 4, (short) 5); // PHNMR 4 -> 5
        CommonHeader.seal(b, 0, f.length);
        assertEquals(FrameReject.MALFORMED_BODY, decode(f).reject());
        b.putShort(CommonHeader.LENGTH + 4, (short) 0xFFFF); // NUM_PMU
        CommonHeader.seal(b, 0, f.length);
        assertEquals(FrameReject.MALFORMED_BODY, decode(f).reject());
    }

    @Test
    void refusesTrailingBytes() {
        byte[] f = AnnexFrames.bytes(AnnexFrames.CONFIG_2_ONE_PMU);
        byte[] longer = Arrays.copyOf(f, f.length + 2);
        ByteBuffer b = ByteBuffer.wrap(longer);
        b.putShort(2, (short) longer.length);
        CommonHeader.seal(b, 0, longer.length);
        assertEquals(FrameReject.MALFORMED_BODY, decode(longer).reject());
    }

    @Test
    void refusesOtherFrameTypesAndDamage() {
        assertEquals(FrameReject.WRONG_FRAME_TYPE, decode(AnnexFrames.bytes(AnnexFrames.DATA_ONE_PMU)).reject());
        byte[] f = AnnexFrames.bytes(AnnexFrames.CONFIG_2_ONE_PMU);
        f[100] ^= 0x40;
        assertEquals(FrameReject.BAD_CRC, decode(f).reject());
    }
}
