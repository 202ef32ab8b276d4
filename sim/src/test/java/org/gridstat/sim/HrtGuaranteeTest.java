package org.gridstat.sim;

import static org.gridstat.sim.Scenarios.MS;
import static org.gridstat.sim.Scenarios.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.sim.metrics.FlowInterval;
import org.gridstat.sim.scenario.Scenario;
import org.junit.jupiter.api.Test;

/** What the broker admits as HRT, the routers deliver in time, on links without faults. */
class HrtGuaranteeTest {
    /**
     * Three slow hops where a large frame's transmission (1,311 wire bytes at 125 kB/s: 10.5 ms a
     * hop) dwarfs the propagation delay and the queueing budgets: a bound the delays and budgets
     * fit but the transmissions do not must be refused, not admitted and then missed; a bound that
     * fits them (and the EDF test of each hop, at the HRT class's share) is admitted and kept.
     */
    @Test
    void aBoundTheTransmissionTimesDoNotFitIsRefusedNotMissed() {
        Topology t = Topology.builder()
                .router("a", 1_000_000, MS, null).router("b", 1_000_000, MS, null)
                .router("c", 1_000_000, MS, null).router("d", 1_000_000, MS, null)
                .link("a", "b", 125_000, 0, Topology.Builder.defaultShares())
                .link("b", "c", 125_000, 0, Topology.Builder.defaultShares())
                .link("c", "d", 125_000, 0, Topology.Builder.defaultShares())
                .build();
        long interval = S / 10;
        for (long bound : new long[] {20 * MS, 300 * MS}) {
            Scenario s = Scenarios.scenario(t, 5 * S, Map.of(),
                    List.of(new Scenario.Variable("pmu", "a", 1283, interval, ServiceClass.HRT, "", MS, 0, bound, 0)),
                    List.of(new Scenario.Subscription("cc", "pmu", "d", "cc", QosSpec.builder()
                            .interval(Duration.ofNanos(interval)).latencyBound(Duration.ofNanos(bound))
                            .serviceClass(ServiceClass.HRT).build(), 0)),
                    List.of(), List.of());
            SimulationResult r = Simulation.run(s);
            String admission = r.admissions().get("cc");
            if (bound == 20 * MS) {
                // 3 × 10.5 ms of transmission alone: no schedule can meet 20 ms
                assertTrue(admission.startsWith("refused"), "20 ms bound: " + admission);
            } else {
                assertEquals("admitted", admission, "300 ms bound");
                FlowInterval sum = r.summary("cc");
                assertEquals(50, sum.delivered());
                assertEquals(0, sum.late() + sum.deadlineMisses(), sum.toString());
            }
        }
    }
}
