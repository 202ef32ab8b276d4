package org.gridstat.node.bench;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.gridstat.core.model.ServiceClass;
import org.junit.jupiter.api.Test;

/** The mixed scenario's shape, and what the sinks should receive of what the generator sends. */
class ScenarioTest {
    private static final long SECOND = 1_000_000_000L;
    /** A whole second of the epoch, so grids line up with the test's arithmetic. */
    private static final long T0 = 1_790_000_000L * SECOND;

    @Test
    void mixedHas30FlowsOverThreeClassesTwoLinksWithMulticastAndFilters() {
        Scenario mixed = Scenario.mixed();
        List<Map<String, Object>> flows = mixed.routerFlows();
        assertEquals(30, flows.size());
        assertEquals(20, mixed.streams().size());
        assertEquals(Map.of("a", 20L, "b", 10L),
                flows.stream().collect(Collectors.groupingBy(f -> (String) f.get("link"), Collectors.counting())));
        assertEquals(Map.of("HRT", 8L, "LRT", 9L, "BE", 13L),
                flows.stream().collect(Collectors.groupingBy(f -> (String) f.get("class"), Collectors.counting())));
        assertEquals(13, flows.stream().filter(f -> f.containsKey("rates")).count());
        assertEquals(13, mixed.filteredRoutes());
        // Ids unique, every filtered flow has the publisher's rate for its tolerance, HRT/LRT a budget.
        assertEquals(30, flows.stream().map(f -> f.get("id")).distinct().count());
        assertTrue(flows.stream().filter(f -> f.containsKey("rates")).allMatch(f -> f.get("publisher").equals(Scenario.PUBLISHER_HZ)));
        assertTrue(flows.stream().filter(f -> !f.get("class").equals("BE")).allMatch(f -> f.containsKey("budget")));
        // No subscription asks for the publisher's own rate, which would pass every sample.
        assertTrue(mixed.routes().stream().flatMapToInt(r -> java.util.Arrays.stream(r.ratesHz()))
                .noneMatch(hz -> hz == Scenario.PUBLISHER_HZ));
        // HRT and LRT carry deadlines, BE none.
        for (LoadGenerator.Stream s : mixed.streams()) {
            assertEquals(s.serviceClass() == ServiceClass.BE, s.latencyBoundNanos() == 0, "stream " + s);
        }
    }

    @Test
    void theRouterShouldDeliverEverySampleOfUnfilteredFlowsAndOnePerGridPointOfFilteredOnes() {
        Scenario mixed = Scenario.mixed();
        ExpectedDelivery expected = mixed.routerExpectation();
        // Each variable at 2 kHz through one second, starting on a whole second and stopping 2 ms short
        // of the next, so the filters' 1 ms of jitter tolerance does not reach into it.
        int perSecond = 2000;
        int samples = perSecond - 3;
        for (int i = 0; i < samples; i++) {
            for (int s = 0; s < mixed.streams().size(); s++) {
                expected.sent(s, T0 + i * (SECOND / perSecond) + s);
            }
        }
        long unfiltered = mixed.routes().stream().filter(r -> !r.filtered()).count();
        long gridPoints = mixed.routes().stream().filter(Scenario.Route::filtered)
                .mapToLong(r -> gridPointsPerSecond(r.ratesHz())).sum();
        assertEquals(unfiltered * samples + gridPoints, expected.expected());

        // By flow: e.g. variable 3 gets 240 a second on link a, variable 10 the union of 100 and 30 Hz (120).
        for (int f = 0; f < expected.flows(); f++) {
            Scenario.Route r = mixed.routes().get(f);
            long want = r.filtered() ? gridPointsPerSecond(r.ratesHz()) : samples;
            assertEquals(want, expected.expected(f), "flow " + f + " " + r);
        }
    }

    /** Points of the union of whole-rate grids in one second: 100 Hz and 30 Hz share 10 of them. */
    private static long gridPointsPerSecond(int[] ratesHz) {
        java.util.Set<Long> points = new java.util.HashSet<>();
        for (int hz : ratesHz) {
            for (long j = 0; j < hz; j++) {
                points.add((j * SECOND + hz - 1) / hz); // ⌈j·10⁹/R⌉, the grid's second-aligned points
            }
        }
        return points.size();
    }

    @Test
    void resetRestartsTheCountsButNotTheFilters() {
        ExpectedDelivery expected = Scenario.mixed().routerExpectation();
        int stream = 18; // variable 19: BE at 25 Hz on link a only
        expected.sent(stream, T0);
        assertEquals(1, expected.expected());
        expected.reset();
        expected.sent(stream, T0 + 1_000_000); // same 40 ms slot: the router's filter already served it
        assertEquals(0, expected.expected());
        expected.sent(stream, T0 + 40_000_000);
        assertEquals(1, expected.expected());
    }

    @Test
    void lossIsCountedPerFlowSoOneFlowsSurplusDoesNotHideAnothersLoss() {
        Scenario single = Scenario.single();
        ExpectedDelivery one = single.routerExpectation();
        for (int i = 0; i < 10; i++) {
            one.sent(0, T0 + i);
        }
        assertEquals(10, one.expected());
        assertEquals(3, one.lost(new long[] {7}));
        assertEquals(0, one.lost(new long[] {12}));

        ExpectedDelivery relay = ExpectedDelivery.everyFrame(Scenario.mixed().streams());
        for (int s = 0; s < 20; s++) {
            relay.sent(s, T0);
            relay.sent(s, T0 + 1);
        }
        long[] received = new long[20];
        java.util.Arrays.fill(received, 2);
        received[0] = 4; // duplicates of variable 1
        received[1] = 0; // variable 2 lost
        assertEquals(40, relay.expected());
        assertEquals(2, relay.lost(received));
    }

    @Test
    void aFlowMustNameAStreamThatExists() {
        assertThrows(IllegalArgumentException.class,
                () -> new ExpectedDelivery(List.of(new ExpectedDelivery.Flow(3, 4, 0, null)), 2));
    }
}
