package org.gridstat.sim.explore;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import org.gridstat.sim.Simulation;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.scenario.Scenario;

/**
 * Runs random scenarios seed by seed and checks each run's invariants; every few seeds, also that
 * the run replays to the same result. A failure names the seed that replays it.
 */
public final class Explorer {
    /** What went wrong with one seed. */
    public record Failure(long seed, List<String> violations) {
        @Override
        public String toString() {
            return "seed " + seed + " (replay: gridstat sim --explore " + seed + ".." + seed + "): "
                    + String.join("; ", violations);
        }
    }

    private Explorer() {
    }

    /**
     * Explores seeds {@code from} to {@code to} inclusive.
     *
     * @param replayEvery every how many seeds a run is replayed to check determinism (0: never)
     * @param progress    told each seed as it starts
     */
    public static List<Failure> explore(long from, long to, int replayEvery, LongConsumer progress) {
        List<Failure> failures = new ArrayList<>();
        for (long seed = from; ; seed++) {
            progress.accept(seed);
            List<String> violations = new ArrayList<>();
            Scenario scenario;
            try {
                scenario = RandomScenarios.generate(seed);
                Simulation.Checked run = Simulation.runChecked(scenario);
                violations.addAll(run.violations());
                if (replayEvery > 0 && seed % replayEvery == 0) {
                    SimulationResult again = Simulation.run(scenario);
                    if (!again.equals(run.result())) {
                        violations.add("the same scenario and seed gave a different result when run again");
                    }
                }
            } catch (RuntimeException e) {
                violations.add("the run threw " + e);
            }
            if (!violations.isEmpty()) {
                failures.add(new Failure(seed, violations));
            }
            if (seed == to) {
                break; // before seed++ could wrap past Long.MAX_VALUE
            }
        }
        return failures;
    }
}
