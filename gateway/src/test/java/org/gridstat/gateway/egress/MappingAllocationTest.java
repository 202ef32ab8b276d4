package org.gridstat.gateway.egress;

import static org.junit.jupiter.api.Assertions.*;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.List;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.data.DataFrameReader;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.mapping.PmuDescription;
import org.gridstat.gateway.mapping.PmuSample;
import org.gridstat.gateway.pmusim.PmuSimSpec;
import org.gridstat.gateway.pmusim.PmuSimulator;
import org.gridstat.gateway.pmusim.SimulatedPmu;
import org.junit.jupiter.api.Test;

/**
 * The gateway's per-frame work allocates nothing: a frame cut into its PMUs' samples at the
 * ingest, and the samples aligned and rebuilt into a frame at the egress (JMH's
 * {@code PhasorMappingBenchmark} measures their speed). Counted with the thread's allocation
 * counter over 100,000 frames after a warm-up.
 */
class MappingAllocationTest {
    private static final int TIME_BASE = 3_000_000;
    private int built;

    @Test
    void cuttingAFrameIntoSamplesAndRebuildingItAllocateNothingPerFrame() {
        PmuSimSpec spec = new PmuSimSpec(7, 2, 30, TIME_BASE, List.of(
                new SimulatedPmu("A", 7, DataFormat.of(true, true, true, true), 6, 2, 1, NominalFrequency.HZ_60),
                new SimulatedPmu("B", 8, DataFormat.of(false, false, false, false), 3, 1, 1, NominalFrequency.HZ_60)), 1);
        ConfigFrame cfg = PmuSimulator.configFor(spec);
        DataLayout layout = DataLayout.of(cfg);
        byte[] data = PmuSimulator.dataFrame(spec, cfg, 1_700_000_000L, 0, 0);
        ByteBuffer frame = ByteBuffer.wrap(data);
        DataFrameReader reader = new DataFrameReader();
        ByteBuffer[] samples = {ByteBuffer.allocate(WireFormat.MAX_PAYLOAD_LENGTH), ByteBuffer.allocate(WireFormat.MAX_PAYLOAD_LENGTH)};
        int[] lengths = new int[2];
        OutputFrameBuilder builder = new OutputFrameBuilder(PmuDescription.join(2, 7, TIME_BASE, 30,
                List.of(PmuDescription.forPmu(cfg, 0), PmuDescription.forPmu(cfg, 1))));
        FrameAligner aligner = new FrameAligner(builder.sampleLengths(), 50_000_000L, 64, 2, 5_000_000_000L);
        ByteBuffer out = ByteBuffer.allocate(65_535);
        FrameAligner.ReleaseSink sink = f -> built += builder.build(f, out, 0);
        long[] key = {TimeKey.of(1_700_000_000L, 0, TIME_BASE, TIME_BASE)};
        long[] now = {0};
        Runnable oneFrame = () -> {
            reader.wrap(layout, frame, 0, data.length);
            for (int p = 0; p < 2; p++) {
                lengths[p] = PmuSample.encode(reader, p, 1, samples[p], 0);
            }
            int fraction = TimeKey.fraction(key[0]) + TIME_BASE / 30;
            key[0] = fraction >= TIME_BASE ? (TimeKey.soc(key[0]) + 1) << 24 : (TimeKey.soc(key[0]) << 24) | fraction;
            now[0] += 33_333_333L;
            aligner.offer(0, key[0], samples[0], 0, lengths[0], now[0], sink);
            aligner.offer(1, key[0], samples[1], 0, lengths[1], now[0], sink);
        };
        for (int i = 0; i < 200_000; i++) { // until the JIT's optimising compiler has the path
            oneFrame.run();
        }
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        int frames = 100_000;
        long least = Long.MAX_VALUE;
        for (int window = 0; window < 3 && least >= frames; window++) {
            // the least of up to three windows: a class loaded or a method compiled once is not per frame
            long before = threads.getThreadAllocatedBytes(id);
            for (int i = 0; i < frames; i++) {
                oneFrame.run();
            }
            least = Math.min(least, threads.getThreadAllocatedBytes(id) - before);
        }
        assertTrue(built > 0 && built % builder.frameSize() == 0, "whole frames rebuilt");
        assertEquals(0, aligner.count(FrameAligner.Release.WINDOW_EXPIRED), "every frame complete");
        assertTrue(least < frames, least + " bytes allocated over " + frames + " frames: under a byte a frame");
    }
}
