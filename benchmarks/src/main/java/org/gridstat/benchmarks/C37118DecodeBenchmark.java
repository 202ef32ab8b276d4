package org.gridstat.benchmarks;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.gridstat.gateway.c37118.config.ConfigFrameCodec;
import org.gridstat.gateway.c37118.data.DataFrameReader;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * A gateway's ingest of one C37.118 data frame: the check of its header, length and CRC-CCITT
 * against the configuration in force, then every value read, as raw words and in engineering
 * units. The frame is the standard's annex example for two PMUs (each 4 integer rectangular
 * phasors, integer FREQ and DFREQ, 3 float analogs, 1 digital word): 20 measurements a frame.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class C37118DecodeBenchmark {
    /** Measurements in the frame: per PMU 4 phasors, FREQ, DFREQ, 3 analogs and a digital word. */
    public static final int MEASUREMENTS = 20;

    private static final String CONFIG_2_TWO_PMUS = ""
            + "aa3103741e36448527f056071098000f4240000253746174696f6e2041202020"
            + "202020201e360004000400030001564120202020202020202020202020205642"
            + "2020202020202020202020202020564320202020202020202020202020204931"
            + "2020202020202020202020202020414e414c4f4731202020202020202020414e"
            + "414c4f4732202020202020202020414e414c4f47332020202020202020204252"
            + "45414b4552203120535441545553425245414b45522032205354415455534252"
            + "45414b4552203320535441545553425245414b45522034205354415455534252"
            + "45414b4552203520535441545553425245414b45522036205354415455534252"
            + "45414b4552203720535441545553425245414b45522038205354415455534252"
            + "45414b4552203920535441545553425245414b45522041205354415455534252"
            + "45414b4552204220535441545553425245414b45522043205354415455534252"
            + "45414b4552204420535441545553425245414b45522045205354415455534252"
            + "45414b4552204620535441545553425245414b4552204720535441545553000d"
            + "f847000df847000df8470100b2d00000000101000001020000010000ffff0000"
            + "001653746174696f6e2041202020202020201e36000400040003000156412020"
            + "2020202020202020202020205642202020202020202020202020202056432020"
            + "20202020202020202020202049312020202020202020202020202020414e414c"
            + "4f4731202020202020202020414e414c4f4732202020202020202020414e414c"
            + "4f4733202020202020202020425245414b455220312053544154555342524541"
            + "4b4552203220535441545553425245414b455220332053544154555342524541"
            + "4b4552203420535441545553425245414b455220352053544154555342524541"
            + "4b4552203620535441545553425245414b455220372053544154555342524541"
            + "4b4552203820535441545553425245414b455220392053544154555342524541"
            + "4b4552204120535441545553425245414b455220422053544154555342524541"
            + "4b4552204320535441545553425245414b455220442053544154555342524541"
            + "4b4552204520535441545553425245414b455220462053544154555342524541"
            + "4b4552204720535441545553000df847000df847000df8470100b2d000000001"
            + "01000001020000010000ffff00000016001e20e8";
    private static final String DATA_TWO_PMUS = ""
            + "aa0100581e3644853600000041b10000392b0000e36ace7ce36a318304440000"
            + "09c4000042c80000447a0000461c40003c120000392b0000e36ace7ce36a3183"
            + "0444000009c4000042c80000447a0000461c40003c12bd52";

    @Param({"heap", "direct"})
    String buffer;

    private final DataFrameReader reader = new DataFrameReader();
    private DataLayout layout;
    private ByteBuffer frame;
    private int length;

    @Setup
    public void setUp() {
        byte[] config = HexFormat.of().parseHex(CONFIG_2_TWO_PMUS);
        layout = DataLayout.of(new ConfigFrameCodec().decode(ByteBuffer.wrap(config), 0, config.length).frame());
        byte[] data = HexFormat.of().parseHex(DATA_TWO_PMUS);
        frame = "direct".equals(buffer) ? ByteBuffer.allocateDirect(data.length) : ByteBuffer.allocate(data.length);
        frame.put(data).flip();
        length = data.length;
        if (reader.wrap(layout, frame, 0, length) != FrameReject.NONE) {
            throw new IllegalStateException("the annex frame does not decode");
        }
    }

    /** Checks the frame and reads every value raw: what a gateway republishes bit for bit. */
    @Benchmark
    public void decodeRaw(Blackhole bh) {
        bh.consume(reader.wrap(layout, frame, 0, length));
        bh.consume(reader.soc());
        bh.consume(reader.fracSec());
        for (int pmu = 0; pmu < reader.pmuCount(); pmu++) {
            bh.consume(reader.stat(pmu));
            for (int p = 0; p < layout.phasorCount(pmu); p++) {
                bh.consume(reader.phasorFirstRaw(pmu, p));
                bh.consume(reader.phasorSecondRaw(pmu, p));
            }
            bh.consume(reader.frequencyRaw(pmu));
            bh.consume(reader.rocofRaw(pmu));
            for (int a = 0; a < layout.analogCount(pmu); a++) {
                bh.consume(reader.analogRaw(pmu, a));
            }
            for (int d = 0; d < layout.digitalCount(pmu); d++) {
                bh.consume(reader.digital(pmu, d));
            }
        }
    }

    /** Checks the frame and reads every value in engineering units (volts, amperes, Hz, Hz/s). */
    @Benchmark
    public void decodeEngineering(Blackhole bh) {
        bh.consume(reader.wrap(layout, frame, 0, length));
        bh.consume(reader.fractionNanos());
        for (int pmu = 0; pmu < reader.pmuCount(); pmu++) {
            for (int p = 0; p < layout.phasorCount(pmu); p++) {
                bh.consume(reader.phasorMagnitude(pmu, p));
                bh.consume(reader.phasorAngle(pmu, p));
            }
            bh.consume(reader.frequency(pmu));
            bh.consume(reader.rocof(pmu));
            for (int a = 0; a < layout.analogCount(pmu); a++) {
                bh.consume(reader.analog(pmu, a));
            }
            for (int d = 0; d < layout.digitalCount(pmu); d++) {
                bh.consume(reader.digital(pmu, d));
            }
        }
    }
}
