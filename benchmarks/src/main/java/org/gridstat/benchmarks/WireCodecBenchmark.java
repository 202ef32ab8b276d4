package org.gridstat.benchmarks;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.core.wire.StatusEventDecoder;
import org.gridstat.core.wire.StatusEventEncoder;
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
 * Encode and decode of a status event in place, as publishers and routers do per event. The
 * 260-byte frame is the size of the published experiments' samples; the double is the smallest
 * event. Decode includes the full validation with the CRC32C.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class WireCodecBenchmark {
    /** Frame size in bytes: 56 is a double event, 260 the experiments' sample size. */
    @Param({"56", "260"})
    int frameBytes;

    @Param({"direct", "heap"})
    String buffer;

    private final StatusEventEncoder encoder = new StatusEventEncoder();
    private final StatusEventDecoder decoder = new StatusEventDecoder();
    private ByteBuffer frame;
    private int length;
    private byte[] payload;
    private long sequence;

    @Setup
    public void setUp() {
        frame = "direct".equals(buffer) ? ByteBuffer.allocateDirect(2048) : ByteBuffer.allocate(2048);
        payload = new byte[frameBytes - 48];
        length = encode();
        if (decoder.wrap(frame, 0, length) != RejectReason.NONE) {
            throw new IllegalStateException("benchmark frame does not decode");
        }
    }

    private int encode() {
        encoder.wrap(frame, 0).variableId(42).sequence(sequence++).sourceTimeNanos(1_790_000_000_000_000_000L + sequence)
                .deadlineNanos(1_790_000_000_050_000_000L).serviceClass(ServiceClass.HRT).hopCount(1);
        if (frameBytes == 56) {
            encoder.doublePayload(60.0 + sequence * 1e-6);
        } else {
            encoder.rawPayload(payload, 0, payload.length);
        }
        return encoder.seal();
    }

    @Benchmark
    public int encodeFrame() {
        return encode();
    }

    @Benchmark
    public void decodeFrame(Blackhole bh) {
        RejectReason r = decoder.wrap(frame, 0, length);
        bh.consume(r);
        bh.consume(decoder.variableId());
        bh.consume(decoder.sequence());
        bh.consume(decoder.sourceTimeNanos());
        bh.consume(decoder.deadlineNanos());
        bh.consume(decoder.serviceClass());
    }

    /** What a router does per event: validate, stamp the next hop, reseal. */
    @Benchmark
    public int decodeAndRestamp() {
        decoder.wrap(frame, 0, length);
        return encoder.wrapExisting(frame, 0).hopCount(1).seal();
    }
}
