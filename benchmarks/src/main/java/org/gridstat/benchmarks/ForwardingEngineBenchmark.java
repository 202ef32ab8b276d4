package org.gridstat.benchmarks;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.filter.SampleGrid;
import org.gridstat.core.forward.EventReferences;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.sched.LinkSpec;
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

/**
 * A router's whole per-event decision in core: look up the variable's flow, run its rate filter
 * (60 Hz samples, a 60 Hz subscription: every sample passes), queue it on the link and take it off
 * again. Variables are cycled so lookups miss the caches a single variable would hit.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ForwardingEngineBenchmark {
    @Param({"100", "10000"})
    int variables;

    private ForwardingEngine<Object> engine;
    private long[] ids;
    private long[] times;
    private int next;
    private final Object event = new Object();

    @Setup
    public void setUp() {
        EventReferences<Object> refs = new EventReferences<>() {
            @Override
            public void retain(Object e) {
            }

            @Override
            public void release(Object e) {
            }
        };
        engine = new ForwardingEngine<>(List.of(LinkSpec.withDefaultShares(10_000_000_000L)), variables, refs,
                EstimatorSettings.DEFAULT, 0);
        long sixty = SampleGrid.ofRate(60).intervalNanos();
        ids = new long[variables];
        times = new long[variables];
        for (int i = 0; i < variables; i++) {
            ids[i] = 0x1000_0000L + i * 7919L;
            times[i] = 1_790_000_000_000_000_000L;
            engine.submit(FlowCommand.install(new FlowEntry(1, ids[i], 0,
                    FlowSpec.of(i, ServiceClass.HRT, 1_000_000, 0, 10_000_000_000L, 20, ""), new long[] {sixty}, sixty, 0)));
        }
        engine.applyCommands(0);
    }

    @Benchmark
    public Object forwardAndSend() {
        int i = next;
        next = i + 1 == ids.length ? 0 : i + 1;
        long t = times[i] += 16_666_667L;
        engine.forward(ids[i], t, 0, event, 260, t, t);
        return engine.dequeue(0, t);
    }
}
