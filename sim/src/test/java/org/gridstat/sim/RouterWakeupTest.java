package org.gridstat.sim;

import static org.gridstat.sim.Scenarios.MS;
import static org.gridstat.sim.Scenarios.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.sim.metrics.FlowInterval;
import org.gridstat.sim.scenario.Scenario;
import org.junit.jupiter.api.Test;

/** A simulated router runs its data path at the times its agent asks for, whatever else wakes it. */
class RouterWakeupTest {
    /**
     * A PMU publishing 60 Hz on a 20 Hz reservation: its flow may borrow up to twice that, 11,520 B/s
     * or 44 of its 260-byte frames a second, and is held there. The router must send each time the
     * flow's ceiling allows, the oldest sample still able to arrive in time; a router that waits for
     * the next sample to arrive instead sends each one just as it expires, to be dropped downstream.
     */
    @Test
    void aFlowHeldToItsCeilingSendsWhenItsTokensReturnNotWhenTheNextSampleArrives() {
        Scenario s = Scenarios.scenario(Scenarios.line(1_000_000, MS), 10 * S, Map.of(),
                List.of(Scenarios.variable("pmu", "r1", 260, S / 20, ServiceClass.HRT, 50 * MS)),
                List.of(Scenarios.subscription("cc", "pmu", "r2", S / 20, 50 * MS, ServiceClass.HRT)), List.of(),
                List.of(new Scenario.RateChange(0, "pmu", S / 60)));
        SimulationResult r = Simulation.run(s);
        FlowInterval sum = r.summary("cc");
        assertEquals(600, sum.offered());
        assertEquals(0, sum.late(), sum.toString());
        // 44 a second leave r1, each between 33 and 50 ms old; those sent after 48.7 ms arrive too late.
        for (FlowInterval row : r.rows().subList(1, r.rows().size())) {
            assertTrue(row.delivered() >= 38 && row.delivered() <= 45, row.toString());
        }
    }
}
