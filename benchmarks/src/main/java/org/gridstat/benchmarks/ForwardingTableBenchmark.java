package org.gridstat.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.forward.Route;
import org.gridstat.core.forward.StaticForwardingTable;
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

/** The per-event route lookup, over tables of realistic sizes, cycling through every variable. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ForwardingTableBenchmark {
    @Param({"100", "10000"})
    int variables;

    private StaticForwardingTable table;
    private long[] ids;
    private int next;

    @Setup
    public void setUp() {
        List<String> lines = new ArrayList<>();
        ids = new long[variables];
        for (int i = 0; i < variables; i++) {
            ids[i] = 0x1000_0000L + i * 7919L;
            lines.add(ids[i] + " -> 127.0.0.1:" + (20000 + i % 16));
        }
        table = StaticForwardingTable.parse(lines);
    }

    @Benchmark
    public Route lookup() {
        int i = next;
        next = i + 1 == ids.length ? 0 : i + 1;
        return table.route(ids[i]);
    }
}
