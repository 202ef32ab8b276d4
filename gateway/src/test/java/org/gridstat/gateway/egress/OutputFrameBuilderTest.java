package org.gridstat.gateway.egress;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.gridstat.core.time.ManualClock;
import org.gridstat.gateway.c37118.SampleConfigs;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.config.PmuConfig;
import org.gridstat.gateway.c37118.data.DataFrameReader;
import org.gridstat.gateway.c37118.data.DataFrameWriter;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.data.StatWord;
import org.gridstat.gateway.c37118.frame.FracSec;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.mapping.PmuDescription;
import org.gridstat.gateway.mapping.PmuSampleView;
import org.gridstat.gateway.mapping.SampleFrames;
import org.gridstat.gateway.mapping.SampleReject;
import org.junit.jupiter.api.Test;

class OutputFrameBuilderTest {
    @Test
    void anAbsentBlockIsAbsentDataTaggedNanAndMissingIntegers() {
        DataFormat intRect = DataFormat.of(false, false, false, false);
        ByteBuffer b = ByteBuffer.allocate(40);
        assertEquals(2 + 2 * 4 + 2 * 2 + 2 + 2, AbsentData.write(intRect, 2, 1, 1, b, 3));
        assertArrayEquals(new byte[] {(byte) 0x80, 0, (byte) 0x80, 0, (byte) 0x80, 0, (byte) 0x80, 0, (byte) 0x80, 0,
                (byte) 0x80, 0, (byte) 0x80, 0, (byte) 0x80, 0, (byte) 0x80, 0}, Arrays.copyOfRange(b.array(), 3, 21));

        DataFormat floats = DataFormat.of(true, true, true, true);
        b = ByteBuffer.allocate(40);
        assertEquals(2 + 8 + 8 + 4 + 2, AbsentData.write(floats, 1, 1, 1, b, 0));
        assertEquals(0x8000, b.getShort(0) & 0xFFFF);
        for (int at = 2; at < 22; at += 4) {
            assertEquals(0x7FC0_0000, b.getInt(at));
        }
        assertEquals(0x8000, b.getShort(22) & 0xFFFF);
    }

    @Test
    void anAbsentPmuWrittenThroughAWriterReadsAsAbsentInEveryFormat() {
        for (int format = 0; format < 16; format++) {
            PmuConfig pmu = SampleConfigs.pmu(4, new DataFormat(format), 2, 2, 1, NominalFrequency.HZ_60);
            ConfigFrame cfg = SampleFrames.stream(2, 4, 1_000_000, List.of(pmu));
            DataLayout layout = DataLayout.of(cfg);
            ByteBuffer viaWriter = ByteBuffer.allocate(layout.frameSize());
            DataFrameWriter w = new DataFrameWriter().wrap(layout, viaWriter, 0, 2, 1, 0);
            AbsentData.write(w, layout, 0);
            w.seal();
            ByteBuffer viaBuffer = ByteBuffer.wrap(viaWriter.array().clone());
            AbsentData.write(pmu, viaBuffer, 14);
            assertArrayEquals(viaWriter.array(), viaBuffer.array());

            DataFrameReader r = new DataFrameReader();
            assertEquals(FrameReject.NONE, r.wrap(layout, viaWriter, 0, layout.frameSize()));
            assertEquals(2, StatWord.dataError(r.stat(0)));
            assertEquals(0x8000, r.stat(0));
            if (new DataFormat(format).floatFrequency()) {
                assertTrue(Double.isNaN(r.frequency(0)));
            } else {
                assertEquals(0x8000, r.frequencyRaw(0));
            }
            if (new DataFormat(format).floatPhasors()) {
                assertTrue(Double.isNaN(r.phasorMagnitude(0, 1)));
            }
        }
    }

    @Test
    void timeKeysRescaleFractionsBetweenTimeBasesAndCarryIntoTheSecond() {
        assertEquals(5L << 24 | 500_000, TimeKey.of(5, FracSec.of(0x0F, 500_000), 1_000_000, 1_000_000));
        assertEquals(5L << 24 | 1_200_000, TimeKey.of(5, 1_200_000, 1_000_000, 1_000_000), "same base: as sent");
        assertEquals(5L << 24 | 8_388_608, TimeKey.of(5, 500_000, 1_000_000, 0x00FF_FFFF), "half a second, rounded");
        assertEquals(5L << 24 | 50, TimeKey.of(5, 0x8000_0000 | 500_000, 0x0100_0000 | 1_000_000, 100));
        assertEquals(6L << 24, TimeKey.of(5, 999_999, 1_000_000, 1_000), "rounds up to the next second");
        assertEquals(0xFFFF_FFFFL, TimeKey.soc(TimeKey.of(0xFFFF_FFFFL, 7, 30, 30)));
        assertEquals(7, TimeKey.fraction(TimeKey.of(0xFFFF_FFFFL, 7, 30, 30)));
        assertTrue(TimeKey.of(6, 0, 1_000_000, 1_000_000) > TimeKey.of(5, 999_999, 1_000_000, 1_000_000));
    }

    @Test
    void samplesOfPmusFromTwoStreamsAreAlignedAndRebuiltIntoOneFrame() {
        // Two PDCs, one counting microseconds, the other 2^24 - 1 per second; the output counts microseconds.
        PmuConfig a = SampleConfigs.pmu(11, DataFormat.of(false, false, false, false), 2, 1, 1, NominalFrequency.HZ_60);
        PmuConfig b = SampleConfigs.pmu(22, DataFormat.of(true, true, true, true), 3, 0, 2, NominalFrequency.HZ_60);
        PmuConfig c = SampleConfigs.pmu(33, DataFormat.of(true, false, true, false), 1, 1, 0, NominalFrequency.HZ_60);
        ConfigFrame first = SampleFrames.stream(2, 1, 1_000_000, List.of(a, c));
        ConfigFrame second = SampleFrames.stream(2, 2, 0x00FF_FFFF, List.of(b));
        ConfigFrame output = PmuDescription.join(2, 900, 1_000_000, 30, List.of(
                PmuDescription.forPmu(first, 0), PmuDescription.forPmu(second, 0), PmuDescription.forPmu(first, 1)));
        OutputFrameBuilder builder = new OutputFrameBuilder(output);
        DataLayout firstLayout = DataLayout.of(first);
        DataLayout secondLayout = DataLayout.of(second);
        ManualClock clock = new ManualClock(0);
        FrameAligner aligner = new FrameAligner(builder.sampleLengths(), 50_000_000L, 16, 2, 3_000_000_000L);
        List<byte[]> out = new ArrayList<>();
        FrameAligner.ReleaseSink sink = f -> {
            ByteBuffer frame = ByteBuffer.allocate(builder.frameSize());
            builder.build(f, frame, 0);
            out.add(frame.array());
        };
        Random random = new Random(9);
        long soc = 1_700_000_100L;
        byte[] f1 = SampleFrames.randomFrame(firstLayout, 2, soc, FracSec.of(0x05, 500_000), random);
        byte[] f2 = SampleFrames.randomFrame(secondLayout, 2, soc, FracSec.of(0x00, 8_388_608), random);
        PmuSampleView v = new PmuSampleView();
        byte[] sa = SampleFrames.sample(firstLayout, f1, 0, 7);
        byte[] sb = SampleFrames.sample(secondLayout, f2, 0, 7);
        byte[] sc = SampleFrames.sample(firstLayout, f1, 1, 7);
        int[] slotOf = {0, 1, 2};
        byte[][] samples = {sc, sb, sa};
        int[] slots = {2, 1, 0};
        for (int i = 0; i < 3; i++) {
            assertEquals(SampleReject.OK, v.wrap(samples[i], 0, samples[i].length));
            long key = TimeKey.of(v.soc(), v.fracSec(), v.timeBase(), output.timeBase());
            assertEquals(TimeKey.of(soc, 500_000, 1_000_000, 1_000_000), key, "the same instant");
            aligner.offer(slots[i], key, ByteBuffer.wrap(samples[i]), 0, samples[i].length, clock.nanoTime(), sink);
            clock.advance(1_000_000);
        }
        assertEquals(1, out.size());
        byte[] frame = out.get(0);
        assertEquals(slotOf.length, builder.slotCount());
        ByteBuffer fb = ByteBuffer.wrap(frame);
        assertEquals(900, fb.getShort(4));
        assertEquals((int) soc, fb.getInt(6));
        assertEquals(FracSec.of(0x05, 500_000), fb.getInt(10), "the first present slot's time quality");
        DataLayout outLayout = builder.layout();
        assertArrayEquals(SampleFrames.block(firstLayout, f1, 0), SampleFrames.block(outLayout, frame, 0));
        assertArrayEquals(SampleFrames.block(secondLayout, f2, 0), SampleFrames.block(outLayout, frame, 1));
        assertArrayEquals(SampleFrames.block(firstLayout, f1, 1), SampleFrames.block(outLayout, frame, 2));
        assertEquals(FrameReject.NONE, new DataFrameReader().wrap(outLayout, ByteBuffer.wrap(frame), 0, frame.length));

        // the next frame: slot 0 never comes, slot 1 is refused for its shape
        byte[] g1 = SampleFrames.randomFrame(firstLayout, 2, soc, FracSec.of(0x07, 533_333), random);
        byte[] wrongShape = SampleFrames.sample(firstLayout, g1, 0, 7);
        byte[] sc2 = SampleFrames.sample(firstLayout, g1, 1, 7);
        long key = TimeKey.of(soc, 533_333, 1_000_000, 1_000_000);
        aligner.offer(2, key, ByteBuffer.wrap(sc2), 0, sc2.length, clock.nanoTime(), sink);
        assertEquals(FrameAligner.Offer.TOO_LARGE, aligner.offer(1, key, ByteBuffer.wrap(new byte[200]), 0, 200, clock.nanoTime(), sink));
        aligner.offer(1, key, ByteBuffer.wrap(wrongShape), 0, wrongShape.length, clock.nanoTime(), sink);
        clock.advance(50_000_000L);
        aligner.poll(clock.nanoTime(), sink);
        assertEquals(2, out.size());
        frame = out.get(1);
        ByteBuffer absent = ByteBuffer.allocate(100);
        int n = AbsentData.write(a, absent, 0);
        assertArrayEquals(Arrays.copyOf(absent.array(), n), SampleFrames.block(outLayout, frame, 0));
        n = AbsentData.write(b, absent, 0);
        assertArrayEquals(Arrays.copyOf(absent.array(), n), SampleFrames.block(outLayout, frame, 1));
        assertArrayEquals(SampleFrames.block(firstLayout, g1, 1), SampleFrames.block(outLayout, frame, 2));
        assertEquals(FracSec.of(0x07, 533_333), ByteBuffer.wrap(frame).getInt(10), "slot 2 is the first present");
        assertEquals(1, builder.refused(SampleReject.SHAPE_MISMATCH));
        assertEquals(1, builder.absent(0));
        assertEquals(1, builder.absent(1));
        assertEquals(0, builder.absent(2));
        assertEquals(1, aligner.missing(0));
    }
}
