package org.gridstat.benchmarks;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.sched.LinkScheduler;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.core.sched.Shaping;
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
 * One enqueue and one dequeue per operation on a link scheduler holding a standing backlog across
 * many flows, with simulated time advancing 1 µs per event so tokens, pacing and the estimator all
 * run. Flows mix the three classes; real-time flows carry deadlines.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LinkSchedulerBenchmark {
    @Param({"8", "256"})
    int flows;

    private LinkScheduler<Object> scheduler;
    private int[] slots;
    private Object[] events;
    private long now;
    private int next;

    @Setup
    public void setUp() {
        long capacity = 1_000_000_000L; // 1 GB/s: 260 B per µs fits, so pacing admits one event per op
        Map<ServiceClass, Shaping> shares = new EnumMap<>(ServiceClass.class);
        shares.put(ServiceClass.HRT, Shaping.of(capacity / 2, capacity));
        shares.put(ServiceClass.LRT, Shaping.of(capacity * 3 / 10, capacity));
        shares.put(ServiceClass.BE, Shaping.of(capacity / 5, capacity));
        scheduler = new LinkScheduler<>(LinkSpec.of(capacity, shares), flows, e -> { },
                new EstimatorSettings(100_000_000L, 0.5), 0);
        slots = new int[flows];
        ServiceClass[] classes = {ServiceClass.HRT, ServiceClass.LRT, ServiceClass.BE};
        for (int i = 0; i < flows; i++) {
            slots[i] = scheduler.addFlow(FlowSpec.of(i, classes[i % 3], capacity / flows / 2, 0, capacity, 20, ""), 0);
        }
        events = new Object[1024];
        for (int i = 0; i < events.length; i++) {
            events[i] = new Object();
        }
        // A standing backlog of 4 events per flow.
        for (int k = 0; k < 4; k++) {
            for (int i = 0; i < flows; i++) {
                scheduler.enqueue(slots[i], events[(k * flows + i) & 1023], 260, 50_000_000L + k, 50_000_000L + k, 0);
            }
        }
    }

    @Benchmark
    public Object enqueueDequeue() {
        long t = now += 1_000;
        int i = next;
        next = i + 1 == flows ? 0 : i + 1;
        scheduler.enqueue(slots[i], events[i & 1023], 260, t + 50_000_000L, t + 50_000_000L, t);
        return scheduler.dequeue(t);
    }
}
