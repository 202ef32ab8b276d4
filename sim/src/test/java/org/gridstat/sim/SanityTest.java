package org.gridstat.sim;

import static org.gridstat.sim.Scenarios.MS;
import static org.gridstat.sim.Scenarios.S;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.sim.metrics.FlowInterval;
import org.gridstat.sim.scenario.Scenario;
import org.junit.jupiter.api.Test;

/** The simulator against theory. */
class SanityTest {
    @Test
    void belowCapacityNothingIsLostAndLatencyIsSerializationPlusPropagation() {
        long interval = S / 60;
        Scenario s = Scenarios.scenario(Scenarios.line(125_000, 5 * MS), 10 * S, Map.of(),
                List.of(Scenarios.variable("pmu", "r1", 260, interval, ServiceClass.HRT, 50 * MS)),
                List.of(Scenarios.subscription("cc", "pmu", "r2", interval, 50 * MS, ServiceClass.HRT)), List.of(),
                List.of());
        SimulationResult r = Simulation.run(s);
        assertEquals("admitted", r.admissions().get("cc"));
        FlowInterval sum = r.summary("cc");
        assertEquals(600, sum.offered());
        assertEquals(600, sum.delivered(), "the last sample, at 9.984 s, arrives 7.3 ms later, before the end");
        assertEquals(0, sum.late());
        assertEquals(0, sum.overflowDrops());
        // 288 wire bytes (260 + IP and UDP headers) at 125,000 B/s, 5 ms, then 288 B at 1 Gbit/s
        long expected = 288 * S / 125_000 + 5 * MS + 288 * S / Simulation.DELIVERY_CAPACITY;
        // within the latency histogram's resolution (3 significant digits)
        assertEquals(expected, sum.latencyMaxNanos(), expected / 1000.0);
        assertEquals(expected, sum.latencyP50Nanos(), expected / 1000.0);
        assertEquals(expected, sum.latencyMeanNanos(), expected / 1000.0);
        assertEquals(10, r.rows().size());
        r.rows().forEach(row -> assertEquals(60, row.delivered(), row.toString()));
    }

    /**
     * Above capacity, a datagram-aware queue loses what the wire cannot carry and no more: 2,000-byte
     * datagrams (two IP packets, 2,048 bytes on the wire) from four Poisson sources offered 120 % of
     * a 2 Mbit/s link lose (offered − capacity) / offered = 1/6 of them, within one percentage point.
     */
    @Test
    void aboveCapacityADatagramAwareQueueLosesWhatTheWireCannotCarryWithinOnePoint() {
        long capacity = 250_000;
        int wire = 2000 + 8 + 2 * 20;
        double offered = 1.2;
        long interval = Math.round(1e9 * 4 / (offered * capacity / wire));
        List<Scenario.RawSource> raw = new java.util.ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            raw.add(new Scenario.RawSource("s" + i, "r1", "r2", List.of(2000), interval, true, 0, 0, 64));
        }
        Scenario s = Scenarios.scenario(Scenarios.line(capacity, MS), 60 * S,
                Map.of("r1->r2", org.gridstat.sim.net.LinkModel.of(capacity, MS)
                        .withDiscipline(org.gridstat.sim.net.LinkModel.Discipline.DATAGRAM_FIFO, 50)),
                List.of(), List.of(), raw, List.of());
        SimulationResult r = Simulation.run(s);
        long sent = r.raw().values().stream().mapToLong(SimulationResult.RawFigures::sent).sum();
        long delivered = r.raw().values().stream().mapToLong(SimulationResult.RawFigures::delivered).sum();
        double offeredLoad = (double) sent * wire / (capacity * 60.0);
        double bound = (offeredLoad - 1) / offeredLoad;
        double loss = 1 - (double) delivered / sent;
        assertEquals(1.2, offeredLoad, 0.02, "Poisson sources offer what they were set to");
        assertEquals(bound, loss, 0.01, "loss " + loss + " against the bound " + bound);
        assertEquals(0, r.links().get("r1->r2").lostOnWire());
    }
}
