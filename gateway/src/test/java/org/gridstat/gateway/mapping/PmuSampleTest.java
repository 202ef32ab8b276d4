package org.gridstat.gateway.mapping;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.gridstat.gateway.c37118.AnnexFrames;
import org.gridstat.gateway.c37118.SampleConfigs;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.ConfigFrameCodec;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.config.PmuConfig;
import org.gridstat.gateway.c37118.data.DataFrameReader;
import org.gridstat.gateway.c37118.data.DataFrameWriter;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.frame.FracSec;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.egress.OutputFrameBuilder;
import org.gridstat.gateway.egress.TimeKey;
import org.junit.jupiter.api.Test;

class PmuSampleTest {
    private final PmuSampleView view = new PmuSampleView();

    private static ConfigFrame annex(String hex) {
        byte[] f = AnnexFrames.bytes(hex);
        return new ConfigFrameCodec().decode(ByteBuffer.wrap(f), 0, f.length).frame();
    }

    @Test
    void theAnnexSampleCarriesTheFrameHeaderAndTheBlockAsSent() {
        ConfigFrame cfg = annex(AnnexFrames.CONFIG_2_ONE_PMU);
        DataLayout layout = DataLayout.of(cfg);
        byte[] frame = AnnexFrames.bytes(AnnexFrames.DATA_ONE_PMU);
        byte[] sample = SampleFrames.sample(layout, frame, 0, 22);

        assertEquals(26 + frame.length - 16, sample.length, "header, then the frame minus its header and CHK");
        ByteBuffer b = ByteBuffer.wrap(sample);
        assertEquals(1, b.get(0));
        assertEquals(1, b.get(1), "a 2005 frame");
        assertEquals(22, b.getShort(2));
        assertEquals(1_000_000, b.getInt(4));
        assertEquals(0x44853600, b.getInt(8));
        assertEquals(0x000041B1, b.getInt(12));
        assertEquals(7734, b.getShort(16));
        assertEquals(4, b.getShort(18), "FORMAT: float analogs");
        assertEquals(4, b.getShort(20));
        assertEquals(3, b.getShort(22));
        assertEquals(1, b.getShort(24));
        assertArrayEquals(Arrays.copyOfRange(frame, 14, frame.length - 2), Arrays.copyOfRange(sample, 26, sample.length));

        assertEquals(SampleReject.OK, view.wrap(sample, 0, sample.length));
        assertEquals(1, view.version());
        assertEquals(22, view.configCount());
        assertEquals(1_000_000, view.timeBase());
        assertEquals(1_149_580_800L, view.soc());
        assertEquals(16_817, view.fracSec());
        assertEquals(7734, view.idCode());
        assertEquals(4, view.format());
        assertEquals(4, view.phasorCount());
        assertEquals(3, view.analogCount());
        assertEquals(1, view.digitalCount());
        assertEquals(0, view.stat());
        assertEquals(26, view.blockOffset());
        assertEquals(frame.length - 16, view.blockLength());
        assertEquals(1_149_580_800_016_817_000L, view.sourceTimeNanos());
    }

    @Test
    void theAnnexFramesAreRebuiltByteForByteFromTheirSamples() {
        for (String[] pair : new String[][] {{AnnexFrames.CONFIG_2_ONE_PMU, AnnexFrames.DATA_ONE_PMU},
                {AnnexFrames.CONFIG_2_TWO_PMUS, AnnexFrames.DATA_TWO_PMUS}}) {
            ConfigFrame cfg = annex(pair[0]);
            byte[] frame = AnnexFrames.bytes(pair[1]);
            assertArrayEquals(frame, rebuild(cfg, frame));
        }
    }

    @Test
    void everyFormatVersionAndSeveralPmusRoundTripBitForBit() {
        Random random = new Random(7);
        int[] timeBases = {1_000_000, 0x00FF_FFFF, 0x7F00_0064};
        for (int version = 1; version <= 2; version++) {
            for (int format = 0; format < 16; format++) {
                for (int timeBase : timeBases) {
                    List<PmuConfig> pmus = List.of(
                            SampleConfigs.pmu(101, new DataFormat(format), 3, 2, 2, NominalFrequency.HZ_60),
                            SampleConfigs.pmu(102, new DataFormat(15 - format), 1, 0, 0, NominalFrequency.HZ_50),
                            SampleConfigs.pmu(103, new DataFormat(format ^ 0x5), 0, 3, 1, NominalFrequency.HZ_60));
                    ConfigFrame cfg = SampleFrames.stream(version, 100, timeBase, pmus);
                    DataLayout layout = DataLayout.of(cfg);
                    int[] fracSecs = {FracSec.of(FracSec.qualityByte(true, true, true, 0x0B), 0), FracSec.of(0, 0xFF_FFFE),
                            random.nextInt()};
                    for (int fracSec : fracSecs) {
                        byte[] frame = SampleFrames.randomFrame(layout, version, 0xFFFF_FFF0L, fracSec, random);
                        for (int p = 0; p < 3; p++) {
                            byte[] sample = SampleFrames.sample(layout, frame, p, 7);
                            assertEquals(SampleReject.OK, view.wrap(sample, 0, sample.length));
                            assertEquals(version, view.version());
                            assertEquals(timeBase, view.timeBase());
                            assertEquals(0xFFFF_FFF0L, view.soc());
                            assertEquals(fracSec, view.fracSec());
                            assertEquals(101 + p, view.idCode());
                            assertArrayEquals(SampleFrames.block(layout, frame, p), Arrays.copyOfRange(sample, 26, sample.length));
                        }
                        assertArrayEquals(frame, rebuild(cfg, frame), "format " + format + " version " + version);
                    }
                }
            }
        }
    }

    /** Cuts every PMU's sample from a frame and writes the frame again from them, as the egress does. */
    private static byte[] rebuild(ConfigFrame cfg, byte[] frame) {
        DataLayout layout = DataLayout.of(cfg);
        List<ConfigFrame> descriptions = new ArrayList<>();
        PmuSampleView[] views = new PmuSampleView[cfg.pmus().size()];
        for (int p = 0; p < views.length; p++) {
            descriptions.add(PmuDescription.forPmu(cfg, p));
            byte[] sample = SampleFrames.sample(layout, frame, p, cfg.pmus().get(p).configCount());
            views[p] = new PmuSampleView();
            assertEquals(SampleReject.OK, views[p].wrap(ByteBuffer.wrap(sample), 0, sample.length));
        }
        OutputFrameBuilder builder = new OutputFrameBuilder(
                PmuDescription.join(cfg.version(), cfg.idCode(), cfg.timeBase(), cfg.dataRate(), descriptions));
        ByteBuffer out = ByteBuffer.allocate(frame.length + 5).order(ByteOrder.LITTLE_ENDIAN);
        long key = TimeKey.of(views[0].soc(), views[0].fracSec(), views[0].timeBase(), cfg.timeBase());
        assertEquals(frame.length, builder.build(key, views, out, 5));
        return Arrays.copyOfRange(out.array(), 5, 5 + frame.length);
    }

    @Test
    void theBlockWritesIntoAFrameThroughADataFrameWriterOrAtAnyPosition() {
        ConfigFrame cfg = SampleFrames.stream(2, 5, 1_000_000, List.of(
                SampleConfigs.pmu(5, DataFormat.of(true, true, false, true), 2, 2, 1, NominalFrequency.HZ_50)));
        DataLayout layout = DataLayout.of(cfg);
        byte[] frame = SampleFrames.randomFrame(layout, 2, 1_700_000_000L, FracSec.of(3, 12_345), new Random(3));
        byte[] sample = SampleFrames.sample(layout, frame, 0, 1);
        byte[] padded = new byte[sample.length + 9];
        System.arraycopy(sample, 0, padded, 9, sample.length);
        assertEquals(SampleReject.OK, view.wrap(padded, 9, sample.length));

        ByteBuffer out = ByteBuffer.allocate(frame.length);
        DataFrameWriter writer = new DataFrameWriter().wrap(layout, out, 0, 2, view.soc(), view.fracSec());
        view.writeTo(writer, 0);
        writer.seal();
        assertArrayEquals(frame, out.array());

        ByteBuffer at = ByteBuffer.allocate(100 + view.blockLength()).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(view.blockLength(), view.copyBlockTo(at, 100));
        assertArrayEquals(SampleFrames.block(layout, frame, 0), Arrays.copyOfRange(at.array(), 100, at.capacity()));
    }

    @Test
    void theSourceTimeIsTheInstantRoundedToTheNearestNanosecond() {
        assertEquals(1_149_580_800_016_817_000L, PmuSample.sourceTimeNanos(1_149_580_800L, 16_817, 1_000_000));
        // 1/16,777,215 s is 59.6 ns; 2/16,777,215 s is 119.2 ns
        assertEquals(60L, PmuSample.sourceTimeNanos(0, 1, 0x00FF_FFFF));
        assertEquals(119L, PmuSample.sourceTimeNanos(0, 2, 0x00FF_FFFF));
        assertEquals(999_999_940L, PmuSample.sourceTimeNanos(0, 0x00FF_FFFE, 0x00FF_FFFF));
        int topOfSecondWithQualityBits = FracSec.of(FracSec.qualityByte(true, true, true, 0x0F), 0);
        assertEquals(4_294_967_295_000_000_000L, PmuSample.sourceTimeNanos(0xFFFF_FFFFL, topOfSecondWithQualityBits, 30));
        assertEquals(1_500_000_000L, PmuSample.sourceTimeNanos(1, 0xAB00_0001, 0x0100_0002),
                "quality and TIME_BASE flag bytes are not time");
    }

    @Test
    void everyRejectReasonOfWrap() {
        ConfigFrame cfg = annex(AnnexFrames.CONFIG_2_ONE_PMU);
        byte[] good = SampleFrames.sample(DataLayout.of(cfg), AnnexFrames.bytes(AnnexFrames.DATA_ONE_PMU), 0, 22);
        assertEquals(SampleReject.OK, view.wrap(good, 0, good.length));

        assertEquals(SampleReject.TOO_SHORT, view.wrap(good, 0, 25));
        assertEquals(SampleReject.TOO_SHORT, view.wrap(new byte[0], 0, 0));
        assertEquals(0, view.length());
        assertEquals(SampleReject.TOO_LONG, view.wrap(new byte[PmuSample.MAX_LENGTH + 1], 0, PmuSample.MAX_LENGTH + 1));
        assertEquals(SampleReject.UNKNOWN_KIND, view.wrap(with(good, 0, 2), 0, good.length));
        assertEquals(SampleReject.UNKNOWN_KIND, view.wrap(with(good, 0, 0), 0, good.length));
        assertEquals(SampleReject.BAD_VERSION, view.wrap(with(good, 1, 0), 0, good.length));
        assertEquals(SampleReject.BAD_VERSION, view.wrap(with(good, 1, 3), 0, good.length));
        byte[] zeroBase = good.clone();
        ByteBuffer.wrap(zeroBase).putInt(4, 0x0100_0000);
        assertEquals(SampleReject.ZERO_TIME_BASE, view.wrap(zeroBase, 0, good.length), "flags without a subdivision");
        assertEquals(SampleReject.LENGTH_MISMATCH, view.wrap(Arrays.copyOf(good, good.length + 1), 0, good.length + 1));
        assertEquals(SampleReject.LENGTH_MISMATCH, view.wrap(good, 0, good.length - 1));
        assertEquals(SampleReject.LENGTH_MISMATCH, view.wrap(with(good, 25, 2), 0, good.length), "DGNMR 2: two bytes short");
        assertEquals(SampleReject.LENGTH_MISMATCH, view.wrap(with(good, 19, 0x0C), 0, good.length), "float FREQ: longer");
        assertEquals(SampleReject.OK, view.wrap(with(good, 18, 0x80), 0, good.length),
                "FORMAT bits 15-4 do not change the block");
    }

    @Test
    void aSampleOfAnotherShapeThanItsSlotIsAbsentAndCountedAsShapeMismatch() {
        ConfigFrame cfg = annex(AnnexFrames.CONFIG_2_ONE_PMU);
        byte[] frame = AnnexFrames.bytes(AnnexFrames.DATA_ONE_PMU);
        byte[] good = SampleFrames.sample(DataLayout.of(cfg), frame, 0, 22);
        // FORMAT bit 7 set: the block reads the same, but it is not what the slot describes
        byte[] other = with(good, 18, 0x80);
        assertEquals(SampleReject.OK, view.wrap(other, 0, other.length));
        OutputFrameBuilder builder = new OutputFrameBuilder(cfg);
        assertFalse(builder.fits(0, view));
        ByteBuffer out = ByteBuffer.allocate(frame.length);
        builder.build(TimeKey.of(view.soc(), view.fracSec(), view.timeBase(), cfg.timeBase()), new PmuSampleView[] {view}, out, 0);
        assertEquals(1, builder.refused(SampleReject.SHAPE_MISMATCH));
        assertEquals(1, builder.absent(0));
        assertEquals(0x8000, out.getShort(14) & 0xFFFF, "STAT: absent data");
        assertEquals(OutputFrameBuilder.NO_SAMPLE_QUALITY, out.get(10), "no sample present vouches for the time");
        assertEquals(FrameReject.NONE, new DataFrameReader().wrap(DataLayout.of(cfg), out, 0, frame.length));
    }

    @Test
    void aSampleLargerThanAPayloadIsRefusedWhenEncoded() {
        DataFormat floats = DataFormat.of(false, true, true, true);
        ConfigFrame cfg = SampleFrames.stream(2, 9, 1_000_000, List.of(
                SampleConfigs.pmu(9, floats, 173, 1, 0, NominalFrequency.HZ_60),
                SampleConfigs.pmu(10, floats, 173, 1, 1, NominalFrequency.HZ_60)));
        DataLayout layout = DataLayout.of(cfg);
        assertEquals(1424, PmuSample.length(layout, 0), "26 + STAT 2 + 173 × 8 + FREQ/DFREQ 8 + 4");
        assertTrue(PmuSample.fits(layout, 0));
        assertEquals(1426, PmuSample.length(layout, 1));
        assertFalse(PmuSample.fits(layout, 1));

        byte[] frame = SampleFrames.randomFrame(layout, 2, 1, 0, new Random(1));
        DataFrameReader reader = new DataFrameReader();
        assertEquals(FrameReject.NONE, reader.wrap(layout, ByteBuffer.wrap(frame), 0, frame.length));
        byte[] out = new byte[2000];
        assertEquals(1424, PmuSample.encode(reader, 0, 1, out, 0));
        assertEquals(SampleReject.OK, view.wrap(out, 0, 1424));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PmuSample.encode(reader, 1, 1, out, 0));
        assertTrue(e.getMessage().contains("1426"), e.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> PmuSample.encode(reader, 0, 1, new byte[1423], 0));
    }

    private static byte[] with(byte[] b, int index, int value) {
        byte[] c = b.clone();
        c[index] = (byte) value;
        return c;
    }
}
