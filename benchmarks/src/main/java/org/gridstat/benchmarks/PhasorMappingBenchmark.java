package org.gridstat.benchmarks;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.data.DataFrameReader;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.egress.FrameAligner;
import org.gridstat.gateway.egress.OutputFrameBuilder;
import org.gridstat.gateway.egress.TimeKey;
import org.gridstat.gateway.mapping.PmuDescription;
import org.gridstat.gateway.mapping.PmuSample;
import org.gridstat.gateway.pmusim.PmuSimSpec;
import org.gridstat.gateway.pmusim.PmuSimulator;
import org.gridstat.gateway.pmusim.SimulatedPmu;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The gateway's per-frame work beside the codec, for a stream of two PMUs (a float-polar one with 6
 * phasors, 2 analogs and a digital word; an integer-rectangular one with 3 phasors, an analog and a
 * digital word):
 * <ul>
 *   <li>{@link #ingest}: a data frame checked (header, length, CRC) and cut into the two PMUs'
 *       status-variable payloads ({@link PmuSample}), as the ingest does before publishing;
 *   <li>{@link #egress}: the two samples of one timestamp offered to the aligner, which releases
 *       the frame complete, and the C37.118 data frame rebuilt from them, as the egress does
 *       before serving it.
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PhasorMappingBenchmark {
    private static final int TIME_BASE = 3_000_000;

    private final DataFrameReader reader = new DataFrameReader();
    private final ByteBuffer sample = ByteBuffer.allocate(WireFormat.MAX_PAYLOAD_LENGTH);
    private final ByteBuffer out = ByteBuffer.allocate(65_535);
    private DataLayout layout;
    private ByteBuffer frame;
    private int length;
    private ByteBuffer[] samples;
    private int[] sampleLengths;
    private FrameAligner aligner;
    private OutputFrameBuilder builder;
    private long key;
    private long now;
    private int built;
    private final FrameAligner.ReleaseSink release = f -> built = builder.build(f, out, 0);

    @Setup
    public void setUp() {
        PmuSimSpec spec = new PmuSimSpec(7, 2, 30, TIME_BASE, List.of(
                new SimulatedPmu("SUB1 PMU", 7, DataFormat.of(true, true, true, true), 6, 2, 1, NominalFrequency.HZ_60),
                new SimulatedPmu("SUB1 FEEDER", 8, DataFormat.of(false, false, false, false), 3, 1, 1,
                        NominalFrequency.HZ_60)), 1);
        ConfigFrame cfg = PmuSimulator.configFor(spec);
        layout = DataLayout.of(cfg);
        byte[] data = PmuSimulator.dataFrame(spec, cfg, 1_700_000_000L, 100_000, 0);
        frame = ByteBuffer.wrap(data);
        length = data.length;
        if (reader.wrap(layout, frame, 0, length) != FrameReject.NONE) {
            throw new IllegalStateException("the simulator's frame does not decode");
        }
        samples = new ByteBuffer[2];
        sampleLengths = new int[2];
        for (int p = 0; p < 2; p++) {
            byte[] s = new byte[WireFormat.MAX_PAYLOAD_LENGTH];
            sampleLengths[p] = PmuSample.encode(reader, p, 1, s, 0);
            samples[p] = ByteBuffer.wrap(s);
        }
        ConfigFrame output = PmuDescription.join(2, 7, cfg.timeBase(), 30,
                List.of(PmuDescription.forPmu(cfg, 0), PmuDescription.forPmu(cfg, 1)));
        builder = new OutputFrameBuilder(output);
        aligner = new FrameAligner(builder.sampleLengths(), 50_000_000L, 64, 2, 5_000_000_000L);
        key = TimeKey.of(1_700_000_000L, 100_000, TIME_BASE, TIME_BASE);
    }

    /** Check a frame and cut it into its PMUs' payloads. */
    @Benchmark
    public int ingest() {
        reader.wrap(layout, frame, 0, length);
        int n = 0;
        for (int p = 0; p < reader.pmuCount(); p++) {
            n += PmuSample.encode(reader, p, 1, sample, 0);
        }
        return n;
    }

    /** Align one timestamp's two samples and rebuild its frame. */
    @Benchmark
    public void egress(Blackhole bh) {
        // the next frame on the grid: the aligner sees a stream of consecutive frames
        int fraction = TimeKey.fraction(key) + TIME_BASE / 30;
        key = fraction >= TIME_BASE ? (TimeKey.soc(key) + 1) << 24 : (TimeKey.soc(key) << 24) | fraction;
        now += 33_333_333L;
        aligner.offer(0, key, samples[0], 0, sampleLengths[0], now, release);
        aligner.offer(1, key, samples[1], 0, sampleLengths[1], now, release);
        bh.consume(built);
    }
}
