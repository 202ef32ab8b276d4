package org.gridstat.sim.report;

import java.nio.file.Path;
import java.util.Map;
import org.gridstat.sim.Simulation;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.scenario.ScenarioFile;

/** Small runs for the output tests. */
final class Runs {
    /**
     * r1 -> r2 -> r3: an HRT variable with a jitter over a link that loses 2 % of its packets, a BE
     * variable, a Poisson raw source on r1 -> r2, so the seed changes what is measured.
     */
    static final String NOISY = """
            name: noisy
            duration: 5s
            topology:
              routers:
                - {id: r1, capacity: 100000}
                - {id: r2, capacity: 100000}
                - {id: r3, capacity: 100000}
              links:
                - {between: [r1, r2], bandwidth: 125000, delay: 5ms}
                - {between: [r2, r3], bandwidth: 125000, delay: 5ms}
            links:
              r1->r2: {loss: 0.02}
            variables:
              - {name: pmu, router: r1, bytes: 260, rate: 60, class: HRT, jitter: 3ms, deadline: 50ms, start: 1ms}
              - {name: app, router: r1, bytes: 1000, rate: 10, class: BE, start: 1ms}
            subscriptions:
              - {label: cc, variable: pmu, router: r3, link: cc, latency: 50ms}
              - {label: ops, variable: app, router: r3, link: cc, latency: 1s}
              - {label: too-fast, variable: pmu, router: r3, link: cc, rate: 120, latency: 50ms}
            raw:
              - {label: cross, router: r1, link: r2, sizes: [500, 1400], rate: 40, poisson: true}
            """;

    private Runs() {
    }

    static SimulationResult noisy(long seed) {
        return Simulation.run(ScenarioFile.parse(NOISY, "noisy.yaml", Path.of("."), "noisy", Map.of()).withSeed(seed));
    }
}
