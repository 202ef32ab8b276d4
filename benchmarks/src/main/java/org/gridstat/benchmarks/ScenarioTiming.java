package org.gridstat.benchmarks;

import java.nio.file.Path;
import java.util.Map;
import org.gridstat.sim.Simulation;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.scenario.Scenario;
import org.gridstat.sim.scenario.ScenarioFile;

/**
 * How long one scenario takes to simulate on one thread: runs it {@code runs} times in one JVM
 * (the first ones warm it up) and prints each run's wall time and simulated events per second of
 * wall time; loading the file and writing outputs are left out.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar org.gridstat.benchmarks.ScenarioTiming sim/scenarios/ccc-testbed.yaml 10</pre>
 */
public final class ScenarioTiming {
    private ScenarioTiming() {
    }

    public static void main(String[] args) {
        Scenario s = ScenarioFile.load(Path.of(args[0]), Map.of());
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        for (int i = 1; i <= runs; i++) {
            long start = System.nanoTime();
            SimulationResult r = Simulation.run(s);
            double wall = (System.nanoTime() - start) / 1e9;
            System.out.printf("run %d: %.1f s simulated in %.3f s of wall time, %,d events, %,.0f events/s%n", i,
                    r.durationNanos() / 1e9, wall, r.events(), r.events() / wall);
        }
    }
}
