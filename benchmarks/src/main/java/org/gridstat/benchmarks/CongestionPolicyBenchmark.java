package org.gridstat.benchmarks;

import java.util.concurrent.TimeUnit;
import org.gridstat.core.congestion.BandwidthReassignment;
import org.gridstat.core.congestion.Decision;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.sched.LinkFlows;
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
 * One run of a link's congestion policy per operation, what a router's data path pays once per
 * estimator period and link: {@code flows} flows, a quarter HRT (every other one congested), the
 * rest LRT and best effort in eight substations. {@code steady}: the demands do not change, so
 * nothing is reassigned (the usual period); otherwise the congested flows' demand alternates
 * between two values a few steps apart, so every run moves rates and reports decisions.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CongestionPolicyBenchmark {
    @Param({"8", "256", "1024"})
    int flows;

    @Param({"true", "false"})
    boolean steady;

    private Link link;
    private final BandwidthReassignment policy = new BandwidthReassignment();
    private boolean high;
    private Blackhole sink;
    private final java.util.function.Consumer<Decision> decisions = this::decided;

    /** A link's flows as arrays: no scheduler, so only the policy is measured. */
    static final class Link implements LinkFlows {
        final FlowSpec[] specs;
        final double[] demand;
        final long[] assured;
        final long capacity;

        Link(int n) {
            specs = new FlowSpec[n];
            demand = new double[n];
            assured = new long[n];
            long sum = 0;
            for (int i = 0; i < n; i++) {
                ServiceClass c = i % 4 == 0 ? ServiceClass.HRT : i % 4 == 1 ? ServiceClass.LRT : ServiceClass.BE;
                long ar = 5_760;
                long mr = c == ServiceClass.HRT ? ar : c == ServiceClass.LRT ? ar / 2 : ar / 10;
                specs[i] = FlowSpec.of(i + 1, c, ar, mr, 4 * ar, 20, "sub" + (i % 8));
                assured[i] = ar;
                demand[i] = ar;
                sum += ar;
            }
            capacity = sum; // every byte reserved: needs are met by victims
        }

        @Override
        public long capacity() {
            return capacity;
        }

        @Override
        public int slotCount() {
            return specs.length;
        }

        @Override
        public FlowSpec reserved(int slot) {
            return specs[slot];
        }

        @Override
        public double demand(int slot) {
            return demand[slot];
        }

        @Override
        public long resolution(int slot) {
            return 288;
        }

        @Override
        public long assured(int slot) {
            return assured[slot];
        }

        @Override
        public void assure(int slot, long assuredRate, long now) {
            assured[slot] = assuredRate;
        }

        @Override
        public void shortfall(int slot, long bytesPerSecond) {
        }
    }

    @Setup
    public void setUp(Blackhole bh) {
        sink = bh;
        link = new Link(flows);
        setDemand(11_520);
        policy.reassign(link, 0, decisions);
    }

    private void setDemand(double d) {
        for (int i = 0; i < flows; i += 8) { // every other HRT flow
            link.demand[i] = d;
        }
    }

    private void decided(Decision d) {
        sink.consume(d);
    }

    @Benchmark
    public void reassign() {
        if (!steady) {
            high = !high;
            setDemand(high ? 11_520 + 2_880 : 11_520);
        }
        policy.reassign(link, 0, decisions);
    }
}
