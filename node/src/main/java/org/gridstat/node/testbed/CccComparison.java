package org.gridstat.node.testbed;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.gridstat.sim.Simulation;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.metrics.FlowInterval;
import org.gridstat.sim.reproduce.CccTestbed;
import org.gridstat.sim.scenario.Scenario;

/**
 * The CCC thesis testbed ({@link CccTestbed}, 100 s, the derived bottleneck) run {@code k} times
 * faster by the simulator and in real time on loopback ({@link RealTimeTestbed}), the same scaled
 * scenario both times, compared per stream and published interval.
 */
public final class CccComparison {
    private static final long S = 1_000_000_000L;

    /** One stream over one interval: the simulator's misses beside the real run's. */
    public record Line(String stream, long fromSeconds, long toSeconds, long simOffered, double simMiss,
                       RealTimeTestbed.Row real) {
        /** Real minus simulated misses, in percentage points. */
        public double differencePoints() {
            return 100 * (real.missRatio() - simMiss);
        }
    }

    public record Outcome(double timeScale, boolean congestion, List<Line> lines, RealTimeTestbed.Result real,
                          SimulationResult sim, boolean kernelBottleneck) {
        public Line line(String stream, long fromSeconds) {
            return lines.stream().filter(l -> l.stream().equals(stream) && l.fromSeconds() == fromSeconds).findFirst()
                    .orElseThrow();
        }
    }

    private CccComparison() {
    }

    /** The testbed with congestion control (reassignment and notices, 100 ms estimator) on or off. */
    public static Scenario scenario(boolean congestion) {
        return CccTestbed.scenario(CccTestbed.BOTTLENECK, 100, CccTestbed.congestion(congestion, CccTestbed.PERIOD));
    }

    /** Runs both at time scale {@code k}; {@code log} (or {@code null}) is told what the real run starts. */
    public static Outcome run(boolean congestion, double k, PrintStream log) throws Exception {
        return run(congestion, k, log, null);
    }

    /**
     * As {@link #run(boolean, double, PrintStream)}, with the bottleneck ({@code overlay->gwCC})
     * through a veth pair the kernel shapes ({@code null}: on loopback, shaped by the overlay router).
     */
    public static Outcome run(boolean congestion, double k, PrintStream log, KernelBottleneck bottleneck) throws Exception {
        Scenario scenario = scenario(congestion);
        // the real run first: the simulator's garbage would be collected while the real run keeps time
        RealTimeTestbed.Result real = RealTimeTestbed.run(scenario, k, CccTestbed.INTERVALS, log, bottleneck);
        SimulationResult sim = Simulation.run(ScenarioTimeScale.scale(scenario, k));
        return compare(k, congestion, sim, real, bottleneck != null);
    }

    static Outcome compare(double k, boolean congestion, SimulationResult sim, RealTimeTestbed.Result real) {
        return compare(k, congestion, sim, real, false);
    }

    static Outcome compare(double k, boolean congestion, SimulationResult sim, RealTimeTestbed.Result real,
                           boolean kernelBottleneck) {
        List<Line> lines = new ArrayList<>();
        long[] in = CccTestbed.INTERVALS;
        for (String stream : CccTestbed.STREAMS) {
            for (int i = 0; i + 1 < in.length; i++) {
                long from = Math.round(in[i] * S / k);
                long to = Math.round(in[i + 1] * S / k);
                long offered = 0;
                long onTime = 0;
                for (FlowInterval row : sim.rows()) {
                    if (row.subscription().equals(stream) && row.fromNanos() >= from && row.fromNanos() < to) {
                        offered += row.offered();
                        onTime += row.offeredOnTime(); // by when the sample was taken, as the real run counts
                    }
                }
                double miss = offered == 0 ? 0 : Math.max(0, offered - onTime) / (double) offered;
                lines.add(new Line(stream, in[i], in[i + 1], offered, miss, real.row(stream, in[i])));
            }
        }
        return new Outcome(k, congestion, lines, real, sim, kernelBottleneck);
    }

    /** The comparison as a markdown table: per stream, misses per interval, simulator / real time. */
    public static String markdown(Outcome o) {
        StringBuilder b = new StringBuilder();
        long[] in = CccTestbed.INTERVALS;
        b.append(String.format("CCC testbed, congestion control %s, time scale %s (%.2f s of real time), bottleneck"
                        + " shaped by %s: misses (not on time / offered), simulator / real time%n%n", o.congestion() ? "on" : "off",
                fmt(o.timeScale()), (in[in.length - 1] + 1) / o.timeScale(),
                o.kernelBottleneck() ? "kernel HTB on a veth pair" : "the overlay router"));
        b.append("| stream |");
        for (int i = 0; i + 1 < in.length; i++) {
            b.append(' ').append(in[i]).append('-').append(in[i + 1]).append(" s |");
        }
        b.append(" real offered / on time |\n|---|");
        for (int i = 0; i + 1 < in.length; i++) {
            b.append("---|");
        }
        b.append("---|\n");
        for (String stream : CccTestbed.STREAMS) {
            b.append("| ").append(stream).append(" |");
            StringBuilder counts = new StringBuilder();
            for (int i = 0; i + 1 < in.length; i++) {
                Line l = o.line(stream, in[i]);
                b.append(String.format(" %.1f / %.1f %% |", 100 * l.simMiss(), 100 * l.real().missRatio()));
                counts.append(i == 0 ? "" : ", ").append(l.real().onTime()).append('/').append(l.real().offered());
            }
            b.append(' ').append(counts).append(" |\n");
        }
        double worstHrt = o.lines().stream().filter(l -> l.stream().endsWith("HRT"))
                .mapToDouble(l -> Math.abs(l.differencePoints())).max().orElse(0);
        b.append(String.format("%nLargest HRT difference: %.1f points. Samples published over 1 ms late: %d."
                + " Held at the source: %s.%n", worstHrt, o.real().lateWakeups(), o.real().heldAtSource()));
        o.real().admissions().forEach((stream, a) -> {
            if (!a.equals("admitted")) {
                b.append(stream).append(": ").append(a).append('\n');
            }
        });
        return b.toString();
    }

    private static String fmt(double k) {
        return k == Math.rint(k) ? Long.toString((long) k) : Double.toString(k);
    }
}
