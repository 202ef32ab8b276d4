package org.gridstat.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.gridstat.sim.explore.Explorer;
import org.gridstat.sim.explore.RandomScenarios;
import org.gridstat.sim.metrics.FlowInterval;
import org.gridstat.sim.scenario.Scenario;
import org.junit.jupiter.api.Test;

/** Deterministic simulation testing of the production data path: a few hundred random scenarios. */
class ExploreTest {
    /** Seeds the default run explores; {@code -Dsim.explore.seeds=N} for more. */
    private static final long SEEDS = Long.getLong("sim.explore.seeds", 300);

    @Test
    void everyRandomScenarioKeepsTheInvariants() {
        List<Explorer.Failure> failures = Explorer.explore(1, SEEDS, 10, seed -> { });
        assertTrue(failures.isEmpty(), failures.size() + " of " + SEEDS + " seeds failed:\n"
                + String.join("\n", failures.stream().map(Explorer.Failure::toString).toList()));
    }

    @Test
    void aSeedIsAScenario() {
        Scenario a = RandomScenarios.generate(42);
        Scenario b = RandomScenarios.generate(42);
        assertEquals(a.topology().toText(), b.topology().toText());
        assertEquals(List.of(a.links(), a.variables(), a.subscriptions(), a.rawSources(), a.timeline(), a.durationNanos()),
                List.of(b.links(), b.variables(), b.subscriptions(), b.rawSources(), b.timeline(), b.durationNanos()));
        assertNotEquals(a.variables(), RandomScenarios.generate(43).variables());
    }

    /** The invariants are not vacuous: over the seeds, runs deliver, lose, refuse, and check HRT flows. */
    @Test
    void theExploredRunsExerciseWhatTheInvariantsCheck() {
        long delivered = 0;
        long lateOrMissed = 0;
        long hrtChecked = 0;
        long refused = 0;
        long lost = 0;
        for (long seed = 1; seed <= 120; seed++) {
            Simulation.Checked run = Simulation.runChecked(RandomScenarios.generate(seed));
            hrtChecked += run.hrtChecked();
            delivered += run.result().summaries().stream().mapToLong(FlowInterval::delivered).sum();
            lateOrMissed += run.result().summaries().stream().mapToLong(f -> f.late() + f.deadlineMisses()).sum();
            refused += run.result().admissions().values().stream().filter(v -> v.startsWith("refused")).count();
            lost += run.result().links().values().stream().mapToLong(l -> l.lostToQueue() + l.lostOnWire() + l.lostDown())
                    .sum();
        }
        assertTrue(delivered > 10_000, "delivered " + delivered);
        assertTrue(lateOrMissed > 0, "some runs miss deadlines (faults, FIFO links, clocks): " + lateOrMissed);
        assertTrue(hrtChecked >= 10, "HRT subscriptions held to no miss: " + hrtChecked);
        assertTrue(refused > 0, "some subscriptions refused: " + refused);
        assertTrue(lost > 0, "some datagrams lost: " + lost);
    }
}
