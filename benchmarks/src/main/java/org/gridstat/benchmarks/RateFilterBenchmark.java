package org.gridstat.benchmarks;

import java.util.concurrent.TimeUnit;
import org.gridstat.core.filter.RateFilter;
import org.gridstat.core.filter.SampleGrid;
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

/** One rate-filter decision per operation: 60 Hz samples on a link serving one to three intervals. */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RateFilterBenchmark {
    @Param({"1", "3"})
    int intervals;

    private RateFilter filter;
    private SampleGrid publisher;
    private long t;

    @Setup
    public void setUp() {
        long[] all = {SampleGrid.ofRate(30).intervalNanos(), SampleGrid.ofRate(25).intervalNanos(),
            SampleGrid.ofRate(10).intervalNanos()};
        long[] chosen = new long[intervals];
        System.arraycopy(all, 0, chosen, 0, intervals);
        publisher = SampleGrid.ofRate(60);
        filter = new RateFilter(chosen, publisher.intervalNanos());
        t = 1_790_000_000_000_000_000L;
    }

    @Benchmark
    public boolean accept() {
        t = publisher.next(t);
        return filter.accept(t);
    }
}
