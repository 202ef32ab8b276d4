package org.gridstat.sim;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.gridstat.broker.adapt.GlobalAdaptation.Outcome;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.congestion.Decision;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.sim.reproduce.CccTestbed;
import org.gridstat.sim.scenario.Scenario;
import org.junit.jupiter.api.Test;

/**
 * Global adaptation on simulated time. A diamond: the publisher's router {@code p} reaches the
 * subscriber's {@code s} through {@code a} over a 20,000 B/s bottleneck (1 ms links, the path
 * admission picks first) or through {@code b} (10 Mbit/s, 30 ms links). An HRT PMU reserved at
 * 20 Hz goes to 80 Hz at 10 s: more than the bottleneck's spare capacity and its best-effort
 * victim can give, so {@code p}'s congestion control reports the need unmet; after the reaction
 * delay the broker admits the HRT subscription at 80 Hz, over {@code b}, and installs it.
 */
class GlobalAdaptationSimTest {
    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final long HZ20 = 50 * MS;

    private static Scenario diamond(long adaptationDelay) {
        Map<ServiceClass, Integer> shares = new EnumMap<>(ServiceClass.class);
        shares.put(ServiceClass.HRT, 40);
        shares.put(ServiceClass.LRT, 30);
        shares.put(ServiceClass.BE, 30);
        Topology t = Topology.builder()
                .router("p", 1_000_000, MS, "").router("a", 1_000_000, MS, "")
                .router("b", 1_000_000, MS, "").router("s", 1_000_000, MS, "")
                .link("p", "a", 20_000, MS, shares).link("a", "s", 1_250_000, MS, shares)
                .link("p", "b", 1_250_000, 30 * MS, shares).link("b", "s", 1_250_000, 30 * MS, shares)
                .build();
        List<Scenario.Variable> variables = List.of(
                new Scenario.Variable("pmu", "p", 260, HZ20, ServiceClass.HRT, "sub1", MS, 0, 100 * MS, 0),
                new Scenario.Variable("app", "p", 260, HZ20, ServiceClass.BE, "sub1", MS, 0, 0, 0));
        List<Scenario.Subscription> subscriptions = List.of(
                new Scenario.Subscription("pmu", "pmu", "s", "cc", QosSpec.builder().interval(Duration.ofNanos(HZ20))
                        .latencyBound(Duration.ofMillis(100)).serviceClass(ServiceClass.HRT).build(), 0),
                new Scenario.Subscription("app", "app", "s", "cc", QosSpec.builder().interval(Duration.ofNanos(HZ20))
                        .latencyBound(Duration.ofSeconds(1)).serviceClass(ServiceClass.BE).build(), 0));
        Scenario.Congestion c = CccTestbed.congestion(true, CccTestbed.PERIOD);
        if (adaptationDelay >= 0) {
            c = c.adaptingAfter(adaptationDelay);
        }
        return new Scenario("diamond", t, 21 * S, S, 1, Scenario.Admission.BANDWIDTH_ONLY, Map.of(), variables,
                subscriptions, List.of(), List.of(new Scenario.RateChange(10 * S, "pmu", Math.round(1e9 / 80))), c);
    }

    private static long missed(SimulationResult r, String label, long fromS, long toS) {
        long missed = 0;
        for (var row : r.rows()) {
            if (row.subscription().equals(label) && row.fromNanos() >= fromS * S && row.toNanos() <= toS * S) {
                missed += row.offered() - (row.delivered() - row.late());
            }
        }
        return missed;
    }

    @Test
    void theBrokerAdmitsTheCongestedHrtFlowOverAnotherPathWithinTheDelayAfterItsRouterFoundNoVictimLeft() {
        SimulationResult r = Simulation.run(diamond(200 * MS));
        SimulationResult.CongestionDecision unmet = r.decisions().stream()
                .filter(d -> d.decision().kind() == Decision.Kind.UNMET).findFirst()
                .orElseThrow(() -> new AssertionError("no unmet need: " + r.decisions()));
        assertEquals("p", unmet.router());
        assertTrue(unmet.atNanos() > 10 * S && unmet.atNanos() <= 10 * S + CccTestbed.PERIOD, "" + unmet);
        Outcome grown = r.adaptations().stream().filter(o -> o.kind() == Outcome.Kind.GROWN).findFirst()
                .orElseThrow(() -> new AssertionError("not grown: " + r.adaptations()));
        assertEquals(unmet.atNanos() + 200 * MS, grown.decidedAtNanos(), "the reaction delay after the alarm: " + grown);
        assertTrue(grown.decidedAtNanos() - 10 * S < S, "surge to new reservations under a second: " + grown);
        assertTrue(grown.detail().contains("-> 80.0 Hz"), grown.detail());
        assertEquals(1, r.adaptations().size(), "re-planned once: " + r.adaptations());

        assertEquals(0, missed(r, "pmu", 0, 10), "before the surge");
        assertEquals(0, missed(r, "pmu", 12, 20), "over b, the HRT flow has room for all its 80 Hz");
        assertEquals(0, missed(r, "app", 12, 20), "and best effort has the bottleneck back");

        SimulationResult without = Simulation.run(diamond(-1));
        assertTrue(without.adaptations().isEmpty());
        assertTrue(missed(without, "pmu", 12, 20) > 8 * 80 / 10,
                "without adaptation the bottleneck keeps missing HRT samples: " + missed(without, "pmu", 12, 20));
    }
}
