package org.gridstat.benchmarks;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.sim.Simulation;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.metrics.FlowInterval;
import org.gridstat.sim.scenario.Scenario;

/**
 * How fast and how big the simulator runs: the 1,000-router grid of the admission benchmarks with
 * {@code subscriptions} HRT and BE subscriptions at 10 Hz between random routers, simulated for
 * {@code seconds}; prints the flows the routers hold, the actions (simulated events) run per second
 * of wall time on one thread, the samples delivered, and the heap in use after the run.
 *
 * <pre>java -Xmx16g -cp benchmarks/target/benchmarks.jar org.gridstat.benchmarks.SimulatorScale 6000 2</pre>
 */
public final class SimulatorScale {
    private SimulatorScale() {
    }

    public static void main(String[] args) {
        int subscriptions = args.length > 0 ? Integer.parseInt(args[0]) : 6000;
        long seconds = args.length > 1 ? Long.parseLong(args[1]) : 2;
        Topology grid = GridTopology.generate();
        Random r = new Random(7);
        List<Scenario.Variable> variables = new ArrayList<>();
        List<Scenario.Subscription> subs = new ArrayList<>();
        long interval = 100_000_000L;
        for (int i = 0; i < subscriptions; i++) {
            ServiceClass c = i % 2 == 0 ? ServiceClass.HRT : ServiceClass.BE;
            String from = "r" + r.nextInt(GridTopology.ROUTERS);
            variables.add(new Scenario.Variable("v" + i, from, 260, interval, c, "", 1_000_000L + r.nextInt(100_000_000),
                    0, 200_000_000L, 0));
            subs.add(new Scenario.Subscription("s" + i, "v" + i, "r" + r.nextInt(GridTopology.ROUTERS), "cc",
                    QosSpec.builder().interval(Duration.ofNanos(interval)).latencyBound(Duration.ofMillis(200))
                            .serviceClass(c).build(), 0));
        }
        Scenario s = new Scenario("grid", grid, seconds * 1_000_000_000L, 1_000_000_000L, 1, Scenario.Admission.FULL,
                Map.of(), variables, subs, List.of(), List.of());
        long start = System.nanoTime();
        Simulation sim = Simulation.prepare(s);
        double build = (System.nanoTime() - start) / 1e9;
        start = System.nanoTime();
        long[] intervalStart = {System.nanoTime()};
        SimulationResult result = sim.execute(done -> {
            long now = System.nanoTime();
            System.out.printf("  simulated %.0f s: that second took %.2f s of wall time (the first includes admitting"
                    + " every subscription)%n", done / 1e9, (now - intervalStart[0]) / 1e9);
            intervalStart[0] = now;
        });
        double wall = (System.nanoTime() - start) / 1e9;
        long admitted = result.admissions().values().stream().filter("admitted"::equals).count();
        long delivered = result.summaries().stream().mapToLong(FlowInterval::delivered).sum();
        long late = result.summaries().stream().mapToLong(f -> f.late() + f.deadlineMisses()).sum();
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long flows = sim.flowsHeld(); // and keeps the simulation reachable until the heap was read
        System.out.printf("routers %d, subscriptions %d admitted of %d, flows %d: built in %.2f s, simulated %d s"
                        + " (admission included) in %.2f s of wall time%n",
                GridTopology.ROUTERS, admitted, subscriptions, flows, build, seconds, wall);
        System.out.printf("actions %,d: %,.0f per second of wall time; samples delivered %,d, late or missed %d%n",
                result.events(), result.events() / wall, delivered, late);
        System.out.printf("heap in use after the run, the simulation still held: %,d MB%n", heap / (1024 * 1024));
    }
}
