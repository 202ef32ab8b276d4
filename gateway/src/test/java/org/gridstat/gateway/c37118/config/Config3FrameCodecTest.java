package org.gridstat.gateway.c37118.config;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.gridstat.gateway.c37118.SampleConfigs;
import org.gridstat.gateway.c37118.frame.ChannelName;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.Decoded;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.junit.jupiter.api.Test;

class Config3FrameCodecTest {
    private final Config3FrameCodec codec = new Config3FrameCodec();

    private Decoded<Config3Frame> decode(byte[] f) {
        return codec.decode(ByteBuffer.wrap(f), 0, f.length);
    }

    @Test
    void roundTripsEveryFormatWithSeveralPmus() {
        for (int format = 0; format < 16; format++) {
            Config3Frame c = new Config3Frame(2, 61, SampleConfigs.SOC, 0x5F_0F4240, 0xFFFFFF, List.of(
                    SampleConfigs.pmu3(61, new DataFormat(format), 2, 2, 1, NominalFrequency.HZ_50),
                    SampleConfigs.pmu3(62, new DataFormat(15 - format), 0, 1, 0, NominalFrequency.HZ_60),
                    SampleConfigs.pmu3(63, new DataFormat(format), 5, 0, 2, NominalFrequency.HZ_60)), -2);
            byte[] f = Config3FrameCodec.encode(c);
            Config3Frame back = decode(f).frame();
            assertEquals(c, back);
            assertArrayEquals(f, Config3FrameCodec.encode(back));
        }
    }

    /**
     * A CFG-3 written byte by byte from the field table (C37.118.2-2011 Table 10, as described by
     * the Kaitai file in sonusz/PhasorToolBox and the ICSNPP parser), not by the encoder under
     * test: one PMU, one integer polar phasor, one float analog, one digital word.
     */
    @Test
    void decodesAFrameBuiltFromTheFieldTable() {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        write(body, "0000");                       // CONT_IDX: whole
        write(body, "000F4240");                   // TIME_BASE 1,000,000
        write(body, "0001");                       // NUM_PMU
        name(body, "PMU-Ω");                       // STN, length prefixed UTF-8
        write(body, "1E36");                       // IDCODE 7734
        write(body, "00112233445566778899AABBCCDDEEFF"); // G_PMU_ID
        write(body, "0005");                       // FORMAT: polar, integer phasors, float analogs, integer FREQ
        write(body, "0001" + "0001" + "0001");      // PHNMR, ANNMR, DGNMR
        name(body, "VA");
        name(body, "P");
        for (int bit = 0; bit < 16; bit++) {
            name(body, bit == 0 ? "BRK" : "");
        }
        write(body, "8000" + "04" + "7F" + "3F800000" + "3DCCCCCD"); // PHSCALE: flags, type phase A V, user, Y 1.0, θ 0.1
        write(body, "40000000" + "BF800000");       // ANSCALE: M 2.0, B -1.0
        write(body, "0000FFFF");                    // DIGUNIT
        write(body, "42380000" + "C2C80000" + "7F800000"); // LAT 46, LON -100, ELEV +inf
        write(body, "4D");                          // SVC_CLASS 'M'
        write(body, "00009C40" + "FFFFFF9C");       // WINDOW 40,000 µs, GRP_DLY -100 µs
        write(body, "0001" + "0009");               // FNOM 50 Hz, CFGCNT 9
        write(body, "FFFB");                        // DATA_RATE -5: one frame per 5 s
        byte[] b = body.toByteArray();
        int size = CommonHeader.MIN_FRAME_SIZE + b.length;
        ByteBuffer f = ByteBuffer.allocate(size);
        f.put(HexFormat.of().parseHex("AA52")).putShort((short) size).putShort((short) 7734).putInt(1_149_580_800)
                .putInt(0x0000_41B1).put(b);
        CommonHeader.seal(f, 0, size);

        Config3Frame c = decode(f.array()).frame();
        assertNotNull(c);
        assertEquals(-5, c.dataRate());
        Pmu3Config p = c.pmus().get(0);
        assertEquals("PMU-Ω", p.station().text());
        assertEquals(7734, p.idCode());
        assertEquals(UUID.fromString("00112233-4455-6677-8899-aabbccddeeff"), p.globalId());
        assertTrue(p.format().polar());
        assertTrue(p.format().floatAnalogs());
        assertEquals("VA", p.phasorNames().get(0).text());
        assertEquals(16, p.digitalNames().size());
        assertEquals("BRK", p.digitalNames().get(0).text());
        assertEquals(0, p.digitalNames().get(15).length());
        PhasorScale s = p.phasorScales().get(0);
        assertEquals(0x8000, s.flags());
        assertEquals(4, s.component());
        assertFalse(s.current());
        assertEquals(0x7F, s.userByte());
        assertEquals(1.0f, s.scale());
        assertEquals(0.1f, s.angleAdjustment());
        assertEquals(2.0f, p.analogScales().get(0).scale());
        assertEquals(-1.0f, p.analogScales().get(0).offset());
        assertEquals(46f, p.latitude());
        assertEquals(-100f, p.longitude());
        assertEquals(Float.POSITIVE_INFINITY, p.elevation());
        assertEquals('M', p.serviceClass());
        assertEquals(40_000, p.window());
        assertEquals(-100, p.groupDelay());
        assertEquals(50, p.nominal().hertz());
        assertEquals(9, p.configCount());
        assertArrayEquals(f.array(), Config3FrameCodec.encode(c));
    }

    private static void write(ByteArrayOutputStream out, String hex) {
        out.writeBytes(HexFormat.of().parseHex(hex));
    }

    private static void name(ByteArrayOutputStream out, String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        out.write(b.length);
        out.writeBytes(b);
    }

    @Test
    void keepsNaNPayloadsAndNonUtf8NamesBitForBit() {
        Pmu3Config base = SampleConfigs.pmu3(5, new DataFormat(0), 1, 1, 0, NominalFrequency.HZ_60);
        Pmu3Config odd = new Pmu3Config(ChannelName.ofBytes(new byte[] {(byte) 0xFF, 0, (byte) 0xC3}), 5, base.globalId(),
                base.format(), base.phasorNames(), base.analogNames(), base.digitalNames(),
                List.of(new PhasorScale(0, 0, 0, 0x7FA0_0001, 0xFFC0_0000)), List.of(new AnalogScale(0x7F80_0001, 0)),
                base.digitalUnits(), 0x7FC0_1234, 0, 0, 0, 0, 0, base.nominal(), 0);
        Config3Frame c = new Config3Frame(2, 5, 0, 0, 1, List.of(odd), 1);
        byte[] f = Config3FrameCodec.encode(c);
        Config3Frame back = decode(f).frame();
        assertEquals(c, back);
        assertArrayEquals(f, Config3FrameCodec.encode(back));
    }

    @Test
    void assemblesFragmentsInOrder() {
        Config3Frame c = new Config3Frame(2, 70, SampleConfigs.SOC, 0, 1_000_000, List.of(
                SampleConfigs.pmu3(70, new DataFormat(3), 6, 4, 3, NominalFrequency.HZ_60),
                SampleConfigs.pmu3(71, new DataFormat(12), 6, 4, 3, NominalFrequency.HZ_50)), 60);
        List<byte[]> fragments = Config3FrameCodec.encodeFragments(c, 200);
        assertTrue(fragments.size() > 3);
        Config3Assembler assembler = new Config3Assembler();
        for (int i = 0; i < fragments.size(); i++) {
            byte[] f = fragments.get(i);
            assertTrue(f.length <= 200);
            int index = ByteBuffer.wrap(f).getShort(CommonHeader.LENGTH) & 0xFFFF;
            assertEquals(i == fragments.size() - 1 ? 0xFFFF : i + 1, index);
            assertEquals(FrameReject.CONTINUATION_OUT_OF_ORDER, decode(f).reject(), "a fragment alone is not a configuration");
            Decoded<Config3Frame> d = assembler.offer(ByteBuffer.wrap(f), 0, f.length);
            if (i < fragments.size() - 1) {
                assertNull(d);
                assertTrue(assembler.pending());
            } else {
                assertEquals(c, d.frame());
                assertFalse(assembler.pending());
            }
        }
    }

    @Test
    void aWholeFrameNeedsNoFragments() {
        Config3Frame c = SampleConfigs.config3(new DataFormat(0));
        List<byte[]> one = Config3FrameCodec.encodeFragments(c, 65_535);
        assertEquals(1, one.size());
        assertArrayEquals(Config3FrameCodec.encode(c), one.get(0));
        Decoded<Config3Frame> d = new Config3Assembler().offer(ByteBuffer.wrap(one.get(0)), 0, one.get(0).length);
        assertEquals(c, d.frame());
    }

    @Test
    void refusesFragmentsOutOfSequence() {
        Config3Frame c = new Config3Frame(2, 70, SampleConfigs.SOC, 0, 1_000_000, List.of(
                SampleConfigs.pmu3(70, new DataFormat(3), 6, 4, 3, NominalFrequency.HZ_60)), 60);
        List<byte[]> fragments = Config3FrameCodec.encodeFragments(c, 150);
        Config3Assembler assembler = new Config3Assembler();
        byte[] second = fragments.get(1);
        assertEquals(FrameReject.CONTINUATION_OUT_OF_ORDER, assembler.offer(ByteBuffer.wrap(second), 0, second.length).reject());
        byte[] first = fragments.get(0);
        assertNull(assembler.offer(ByteBuffer.wrap(first), 0, first.length));
        byte[] third = fragments.get(2);
        assertEquals(FrameReject.CONTINUATION_OUT_OF_ORDER, assembler.offer(ByteBuffer.wrap(third), 0, third.length).reject());
        assertFalse(assembler.pending());
    }

    @Test
    void boundsWhatFragmentsMayHold() {
        Config3Frame c = new Config3Frame(2, 70, SampleConfigs.SOC, 0, 1_000_000, List.of(
                SampleConfigs.pmu3(70, new DataFormat(3), 6, 4, 3, NominalFrequency.HZ_60)), 60);
        List<byte[]> fragments = Config3FrameCodec.encodeFragments(c, 150);
        Config3Assembler assembler = new Config3Assembler(300);
        Decoded<Config3Frame> last = null;
        for (byte[] f : fragments) {
            last = assembler.offer(ByteBuffer.wrap(f), 0, f.length);
            if (last != null) {
                break;
            }
        }
        assertEquals(FrameReject.CONTINUATION_OUT_OF_ORDER, last.reject());
    }

    @Test
    void refusesAnAssembledConfigurationWhoseDataFramesCannotFit() {
        // 9,000 float phasors with empty names: a data frame of 72,000 bytes
        Pmu3Config base = SampleConfigs.pmu3(1, DataFormat.of(false, true, false, false), 0, 0, 0, NominalFrequency.HZ_60);
        List<ChannelName> names = java.util.Collections.nCopies(9_000, ChannelName.prefixed(""));
        List<PhasorScale> scales = java.util.Collections.nCopies(9_000, PhasorScale.of(0, 0, 1f, 0f));
        Pmu3Config big = new Pmu3Config(base.station(), 1, base.globalId(), base.format(), names, List.of(), List.of(),
                scales, List.of(), List.of(), 0, 0, 0, 'M', 0, 0, base.nominal(), 0);
        Config3Frame c = new Config3Frame(2, 1, 0, 0, 1_000_000, List.of(big), 1);
        Config3Assembler assembler = new Config3Assembler();
        Decoded<Config3Frame> last = null;
        for (byte[] f : Config3FrameCodec.encodeFragments(c, 60_000)) {
            last = assembler.offer(ByteBuffer.wrap(f), 0, f.length);
        }
        assertEquals(FrameReject.MALFORMED_BODY, last.reject());
    }

    @Test
    void refusesATruncatedBody() {
        byte[] f = Config3FrameCodec.encode(SampleConfigs.config3(new DataFormat(0)));
        ByteBuffer b = ByteBuffer.wrap(f);
        b.putShort(CommonHeader.LENGTH + 2 + 4, (short) 2); // NUM_PMU 1 -> 2
        CommonHeader.seal(b, 0, f.length);
        assertEquals(FrameReject.MALFORMED_BODY, decode(f).reject());
    }
}
