package org.gridstat.benchmarks;

import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.gridstat.broker.admission.AdmissionController;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.SubscriptionRequest;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
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

/**
 * Admission computation alone (no ZooKeeper): a 60 Hz HRT subscription with k = 2 between random
 * routers of a generated 1,000-router topology (a 25 x 40 grid with wrap-around, 2-5 ms links),
 * admitted and released again so the state stays steady.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class AdmissionBenchmark {
    private AdmissionController controller;
    private final Random random = new Random(1);
    private final QosSpec qos = QosSpec.builder().rateHz(60).latencyBound(Duration.ofMillis(200)).paths(2)
            .serviceClass(ServiceClass.HRT).build();
    private long id;

    @Setup
    public void setUp() {
        controller = new AdmissionController(GridTopology.generate());
    }

    @Benchmark
    public AdmissionResult admitAndRelease() {
        int from = random.nextInt(GridTopology.ROUTERS);
        int to = (from + 1 + random.nextInt(GridTopology.ROUTERS - 1)) % GridTopology.ROUTERS;
        long sid = ++id;
        AdmissionResult r = controller.admit(new SubscriptionRequest(sid, VariableId.of(sid), "r" + from, "r" + to, 260, qos));
        controller.release(sid);
        return r;
    }
}
