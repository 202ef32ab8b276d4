package org.gridstat.broker.admission;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.gridstat.broker.admission.AdmissionResult.Admitted;
import org.gridstat.broker.admission.AdmissionResult.Hop;
import org.gridstat.broker.admission.AdmissionResult.Rejected;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.junit.jupiter.api.Test;

class AdmissionControllerTest {
    private static final long MS = 1_000_000L;
    /** A 60 Hz stream of 260-byte frames: (260 + 28) x 60 bytes per second. */
    private static final long NEED = 288 * 60;

    /**
     * 20 routers in a ring with chords, 100 Mbit/s everywhere, except that r19 hangs off r18 on one
     * link whose HRT share holds exactly five 60 Hz streams.
     */
    private static Topology twentyRouters() {
        Topology.Builder b = Topology.builder();
        for (int i = 0; i < 20; i++) {
            b.router("r" + i, 1_000_000);
        }
        for (int i = 0; i < 18; i++) {
            b.between("r" + i, "r" + ((i + 1) % 18), 12_500_000, 2 * MS, Topology.Builder.defaultShares());
        }
        for (int i = 0; i < 9; i += 3) {
            b.between("r" + i, "r" + ((i + 9) % 18), 12_500_000, 5 * MS, Topology.Builder.defaultShares());
        }
        b.between("r18", "r0", 12_500_000, 1 * MS, Topology.Builder.defaultShares());
        b.between("r18", "r9", 12_500_000, 1 * MS, Topology.Builder.defaultShares());
        b.between("r18", "r19", 2 * 5 * NEED, 1 * MS, Topology.Builder.defaultShares()); // HRT: 50 % = 5 streams
        return b.build();
    }

    private static SubscriptionRequest request(long id, long variable, String from, String to, int paths, long boundMs) {
        return new SubscriptionRequest(id, VariableId.of(variable), from, to, 260, QosSpec.builder().rateHz(60)
                .latencyBound(Duration.ofMillis(boundMs)).paths(paths).serviceClass(ServiceClass.HRT).build());
    }

    @Test
    void admitsExactlyWhatTheTightestLinkHoldsAndNamesItWhenFull() {
        Topology t = twentyRouters();
        AdmissionController ac = new AdmissionController(t);
        for (int i = 1; i <= 5; i++) {
            assertInstanceOf(Admitted.class, ac.admit(request(i, 100 + i, "r3", "r19", 1, 100)), "stream " + i);
        }
        AdmissionResult sixth = ac.admit(request(6, 106, "r3", "r19", 1, 100));
        Rejected r = assertInstanceOf(Rejected.class, sixth);
        assertEquals("link r18->r19 class HRT: needs 138.2 kbit/s, 0.0 kbit/s free", r.reason());
        assertEquals(5 * NEED, ac.reserved(t.outgoing(t.router("r18")).stream()
                .filter(l -> l.to().id().equals("r19")).findFirst().orElseThrow(), ServiceClass.HRT));

        assertTrue(ac.release(3));
        assertInstanceOf(Admitted.class, ac.admit(request(6, 106, "r3", "r19", 1, 100)), "room again after a release");
        assertFalse(ac.release(3), "released once only");
    }

    @Test
    void aVariableCrossingALinkForSeveralSubscribersReservesItsHighestRateOnce() {
        Topology t = twentyRouters();
        AdmissionController ac = new AdmissionController(t);
        for (int i = 1; i <= 10; i++) {
            assertInstanceOf(Admitted.class, ac.admit(request(i, 42, "r3", "r19", 1, 100)), "subscriber " + i);
        }
        var bottleneck = t.outgoing(t.router("r18")).stream().filter(l -> l.to().id().equals("r19")).findFirst().orElseThrow();
        assertEquals(NEED, ac.reserved(bottleneck, ServiceClass.HRT), "one stream's worth, not ten");
        SubscriptionRequest faster = new SubscriptionRequest(11, VariableId.of(42), "r3", "r19", 260, QosSpec.builder()
                .rateHz(120).latencyBound(Duration.ofMillis(100)).serviceClass(ServiceClass.HRT).build());
        assertInstanceOf(Admitted.class, ac.admit(faster));
        assertEquals(2 * NEED, ac.reserved(bottleneck, ServiceClass.HRT), "the highest rate, 120 Hz");
        ac.release(11);
        assertEquals(NEED, ac.reserved(bottleneck, ServiceClass.HRT), "back to 60 Hz when the 120 Hz one leaves");
        for (int i = 1; i <= 10; i++) {
            ac.release(i);
        }
        assertEquals(0, ac.reserved(bottleneck, ServiceClass.HRT));
    }

    @Test
    void twoPathSubscriptionsGetNodeDisjointPathsWithinTheBoundAndBudgetsThatAddUp() {
        Topology t = twentyRouters();
        AdmissionController ac = new AdmissionController(t);
        for (int s = 0; s < 18; s++) {
            String from = "r" + s;
            String to = "r" + ((s + 7) % 18);
            Admitted a = assertInstanceOf(Admitted.class, ac.admit(request(s + 1, 500 + s, from, to, 2, 60)));
            assertEquals(2, a.paths().size());
            Set<String> inner = new HashSet<>();
            for (List<Hop> path : a.paths()) {
                assertEquals(from, path.get(0).router());
                assertEquals(to, path.get(path.size() - 1).router());
                assertNull(path.get(path.size() - 1).next(), "the last hop delivers locally");
                long sum = path.stream().mapToLong(Hop::budgetNanos).sum();
                assertEquals(60 * MS, sum, "hop budgets add up to the bound");
                assertEquals(0, path.get(path.size() - 1).downstreamBudgetNanos());
                for (int i = 1; i < path.size() - 1; i++) {
                    assertTrue(inner.add(path.get(i).router()), "router " + path.get(i).router() + " on both paths");
                }
                for (int i = 0; i + 1 < path.size(); i++) {
                    assertEquals(path.get(i).next(), path.get(i + 1).router());
                    assertEquals(path.get(i).downstreamBudgetNanos(),
                            path.get(i + 1).budgetNanos() + path.get(i + 1).downstreamBudgetNanos());
                }
            }
        }
    }

    @Test
    void restoringComputesEachHopsRestDelayFromTheTopologyAndKeepsWhatFollowsThePath() {
        Topology t = twentyRouters();
        AdmissionController ac = new AdmissionController(t);
        SubscriptionRequest r = request(1, 7, "r9", "r19", 1, 100);
        Admitted fresh = assertInstanceOf(Admitted.class, ac.admit(r));
        List<Hop> path = fresh.paths().get(0);
        assertEquals(List.of("r9", "r18", "r19"), path.stream().map(Hop::router).toList());
        // r18->r19: 1 ms + 288 B at 2 x 5 x 17,280 B/s = 1,000,000 + 1,666,666 ns (1,666,666.67 rounded down)
        long r18r19 = 2_666_666L;
        assertEquals(List.of(r18r19, 0L, 0L), path.stream().map(Hop::minRestDelayNanos).toList());
        assertTrue(ac.release(1));

        // stored before rest delays were kept (all 0), and as a segment followed by 3 ms more
        Admitted old = new Admitted(1, List.of(path.stream().map(h -> new Hop(h.router(), h.next(), h.budgetNanos(),
                h.downstreamBudgetNanos(), 0)).toList()));
        assertEquals(fresh, ac.restore(r, old));
        assertTrue(ac.release(1));
        Admitted segment = fresh.followedBy(0, 3 * MS);
        assertEquals(List.of(r18r19 + 3 * MS, 3 * MS, 3 * MS),
                segment.paths().get(0).stream().map(Hop::minRestDelayNanos).toList());
        assertEquals(segment, ac.restore(r, segment));
    }

    @Test
    void rejectionsSayWhichConstraintFailed() {
        Topology t = twentyRouters();
        AdmissionController ac = new AdmissionController(t);
        Rejected tooMany = assertInstanceOf(Rejected.class, ac.admit(request(1, 1, "r3", "r19", 2, 100)));
        assertEquals("only 1 node-disjoint path(s) exist from r3 to r19, 2 asked", tooMany.reason());
        Rejected tooFast = assertInstanceOf(Rejected.class, ac.admit(request(2, 2, "r0", "r9", 1, 3)));
        assertTrue(tooFast.reason().startsWith("path 1 (r0->"), tooFast.reason());
        assertTrue(tooFast.reason().contains("more than the 3.0 ms bound"), tooFast.reason());
        Rejected unknown = assertInstanceOf(Rejected.class, ac.admit(request(3, 3, "r3", "r77", 1, 100)));
        assertEquals("no router 'r77' in the topology", unknown.reason());
        assertEquals(0, ac.admittedCount());
    }
}
