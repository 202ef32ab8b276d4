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
     * Three slow hops where a large frame's transmission (1,311 wire bytes at 125 kB/s: 10.488 ms a
     * hop) dwarfs the propagation delay and the queueing budgets: a bound the delays and budgets
     * fit but the transmissions do not must be refused, not admitted and then missed. The path
     * costs 3 x (10.488 + 1) + 1 = 35.464 ms of transmission and queueing budgets.
     *
     * <p>Admitted by bandwidth alone (the simulator's baseline without the deadline test), the
     * path's cost decides: 20 ms is refused, 40 ms admitted and, with nothing else on the links,
     * met. The broker's full admission refuses 40 ms too: each hop gets 40 x 11.488 / 35.464 =
     * 13.0 ms, and a best-effort frame already on the wire (12.0 ms) and the event's own frame at
     * the HRT share (21.0 ms) need 33.0 ms. It admits 110 ms (35.6 ms a hop), which is met.
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
        for (Scenario.Admission admission : Scenario.Admission.values()) {
            for (long bound : new long[] {20 * MS, 40 * MS, 110 * MS}) {
                Scenario s = new Scenario("test", t, 5 * S, S, 1, admission, Map.of(),
                        List.of(new Scenario.Variable("pmu", "a", 1283, interval, ServiceClass.HRT, "", MS, 0, bound, 0)),
                        List.of(new Scenario.Subscription("cc", "pmu", "d", "cc", QosSpec.builder()
                                .interval(Duration.ofNanos(interval)).latencyBound(Duration.ofNanos(bound))
                                .serviceClass(ServiceClass.HRT).build(), 0)),
                        List.of(), List.of());
                SimulationResult r = Simulation.run(s);
                String outcome = r.admissions().get("cc");
                String where = admission + ", " + bound / MS + " ms bound";
                if (bound == 20 * MS) {
                    // 3 x 10.5 ms of transmission alone: no schedule can meet 20 ms
                    assertEquals("refused: path 1 (a->b->c->d) needs 35.5 ms of delay, transmission and queueing"
                            + " budgets, more than the 20.0 ms bound; no path within the bound exist over links with room"
                            + " for the stream", outcome, where);
                } else if (bound == 40 * MS && admission == Scenario.Admission.FULL) {
                    assertTrue(outcome.startsWith("refused: link a->b, HRT: in the first 13.0 ms after a busy period"
                            + " starts the flows need 33.0 ms of transmission"), where + ": " + outcome);
                } else {
                    assertEquals("admitted", outcome, where);
                    FlowInterval sum = r.summary("cc");
                    assertEquals(50, sum.delivered(), where);
                    assertEquals(0, sum.late() + sum.deadlineMisses(), where + ": " + sum);
                }
            }
        }
    }
}
