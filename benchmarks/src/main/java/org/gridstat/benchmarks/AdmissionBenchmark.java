package org.gridstat.benchmarks;

import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.gridstat.broker.admission.AdmissionController;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.SubscriptionRequest;
import org.gridstat.broker.topology.Topology;
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
    private static final int ROWS = 25;
    private static final int COLUMNS = 40;

    private AdmissionController controller;
    private final Random random = new Random(1);
    private final QosSpec qos = QosSpec.builder().rateHz(60).latencyBound(Duration.ofMillis(200)).paths(2)
            .serviceClass(ServiceClass.HRT).build();
    private long id;

    @Setup
    public void setUp() {
        Topology.Builder b = Topology.builder();
        for (int i = 0; i < ROWS * COLUMNS; i++) {
            b.router("r" + i, 1_000_000);
        }
        Random delays = new Random(2);
        for (int r = 0; r < ROWS; r++) {
            for (int c = 0; c < COLUMNS; c++) {
                int here = r * COLUMNS + c;
                b.between("r" + here, "r" + (r * COLUMNS + (c + 1) % COLUMNS), 12_500_000,
                        (2 + delays.nextInt(4)) * 1_000_000L, Topology.Builder.defaultShares());
                b.between("r" + here, "r" + (((r + 1) % ROWS) * COLUMNS + c), 12_500_000,
                        (2 + delays.nextInt(4)) * 1_000_000L, Topology.Builder.defaultShares());
            }
        }
        controller = new AdmissionController(b.build());
    }

    @Benchmark
    public AdmissionResult admitAndRelease() {
        int from = random.nextInt(ROWS * COLUMNS);
        int to = (from + 1 + random.nextInt(ROWS * COLUMNS - 1)) % (ROWS * COLUMNS);
        long sid = ++id;
        AdmissionResult r = controller.admit(new SubscriptionRequest(sid, VariableId.of(sid), "r" + from, "r" + to, 260, qos));
        controller.release(sid);
        return r;
    }
}
