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

/**
 * A link under the router's scheduler: the router paces what it releases to what the wire carries,
 * IP and UDP headers (and a fragment's own IP header) included, so the link's packet queue (the
 * socket and NIC) stays short and EDF, not that FIFO, decides who waits.
 */
class SchedulerPacingTest {
    @Test
    void hrtStaysAheadOfABestEffortFloodOfSmallDatagrams() {
        long capacity = 250_000; // 2 Mbit/s
        // 200-byte datagrams, 228 on the wire: at twice the capacity counted either way.
        Scenario s = Scenarios.scenario(Scenarios.line(capacity, MS), 10 * S, Map.of(),
                List.of(Scenarios.variable("pmu", "r1", 260, S / 50, ServiceClass.HRT, 50 * MS)),
                List.of(Scenarios.subscription("cc", "pmu", "r2", S / 50, 50 * MS, ServiceClass.HRT)),
                List.of(new Scenario.RawSource("flood", "r1", "r2", List.of(200), S / 2500, false, 0, 0, 64)),
                List.of());
        SimulationResult r = Simulation.run(s);
        FlowInterval hrt = r.summary("cc");
        assertEquals(500, hrt.offered());
        assertEquals(0, hrt.deadlineMisses(), hrt.toString());
        assertEquals(500, hrt.delivered(), hrt.toString());
        // Its own 288 wire bytes (1.2 ms), what the pacer released before it (one burst, 1,484 B: 5.9 ms at most,
        // one 228-byte datagram in practice), 1 ms of propagation.
        assertTrue(hrt.latencyMaxNanos() < 9 * MS, hrt.toString());
        // The flood is held to the wire's capacity: what it gets and the HRT stream fill it, no more.
        SimulationResult.LinkFigures link = r.links().get("r1->r2");
        assertTrue(link.bytesOnWire() > 0.97 * capacity * 10, link.toString());
    }
}
