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
        return twentyRouters(2 * 5 * NEED);
    }

    /** The same with r18->r19 of {@code bottleneck} bytes per second. */
    private static Topology twentyRouters(long bottleneck) {
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
        b.between("r18", "r19", bottleneck, 1 * MS, Topology.Builder.defaultShares()); // HRT: 50 % = 5 streams
        return b.build();
    }

    private static SubscriptionRequest request(long id, long variable, String from, String to, int paths, long boundMs) {
        return new SubscriptionRequest(id, VariableId.of(variable), from, to, 260, QosSpec.builder().rateHz(60)
                .latencyBound(Duration.ofMillis(boundMs)).paths(paths).serviceClass(ServiceClass.HRT).build());
    }

    /**
     * r18->r19's HRT share holds five and a half streams: a share filled to the last byte leaves no
     * time for a frame already on the wire, which the deadline test refuses
     * ({@link AdmissionDeadlineTest}). The bound is loose enough for the hop deadlines: on r18->r19
     * (3.515 ms of the 15.607 ms the path r3->r2->r1->r0->r18->r19 costs: its 1 ms delay, 2.515 ms
     * for a 288-byte frame at 190,080 B/s and r18's 1 ms queueing budget, against 3 x 3.023 ms for
     * the 2 ms ring links, 2.023 ms for r0->r18 and r19's 1 ms delivery) five simultaneous frames take
     * 15.2 ms at the HRT share, after 7.9 ms for a frame already on the wire, within the hop's
     * 300 x 3.515 / 15.607 - 1 = 66.6 ms.
     */
    @Test
    void admitsExactlyWhatTheTightestLinkHoldsAndNamesItWhenFull() {
        Topology t = twentyRouters(11 * NEED);
        AdmissionController ac = new AdmissionController(t);
        for (int i = 1; i <= 5; i++) {
            assertInstanceOf(Admitted.class, ac.admit(request(i, 100 + i, "r3", "r19", 1, 300)), "stream " + i);
        }
        AdmissionResult sixth = ac.admit(request(6, 106, "r3", "r19", 1, 300));
        Rejected r = assertInstanceOf(Rejected.class, sixth);
        assertEquals("link r18->r19 class HRT: needs 138.2 kbit/s, 69.1 kbit/s free", r.reason());
        assertEquals(5 * NEED, ac.reserved(t.outgoing(t.router("r18")).stream()
                .filter(l -> l.to().id().equals("r19")).findFirst().orElseThrow(), ServiceClass.HRT));

        assertTrue(ac.release(3));
        assertInstanceOf(Admitted.class, ac.admit(request(6, 106, "r3", "r19", 1, 300)), "room again after a release");
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
        // r9->r18: 1 ms + 288 B at 12,500,000 B/s = 1,000,000 + 23,040 ns
        // r18->r19: 1 ms + 288 B at 2 x 5 x 17,280 B/s = 1,000,000 + 1,666,666 ns (1,666,666.67 rounded down)
        // a hop's rest counts its own link: r9's 1,023,040 + 2,666,666 = 3,689,706 ns, r18's 2,666,666 ns
        long r9r18 = 1_023_040L;
        long r18r19 = 2_666_666L;
        assertEquals(List.of(r9r18 + r18r19, r18r19, 0L), path.stream().map(Hop::minRestDelayNanos).toList());
        assertEquals(3_689_706L, r9r18 + r18r19);
        assertTrue(ac.release(1));

        // stored before rest delays were kept (all 0), and as a segment followed by 3 ms more
        Admitted old = new Admitted(1, List.of(path.stream().map(h -> new Hop(h.router(), h.next(), h.budgetNanos(),
                h.downstreamBudgetNanos(), 0)).toList()));
        assertEquals(fresh, ac.restore(r, old));
        assertTrue(ac.release(1));
        Admitted segment = fresh.followedBy(0, 3 * MS);
        assertEquals(List.of(r9r18 + r18r19 + 3 * MS, r18r19 + 3 * MS, 3 * MS),
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

    /** A line r1 - r2 - r3 at 100 Mbit/s, with room for many 1 kHz streams. */
    private static Topology line() {
        return Topology.builder().router("r1", 1_000_000).router("r2", 1_000_000).router("r3", 1_000_000)
                .between("r1", "r2", 12_500_000, 2 * MS, Topology.Builder.defaultShares())
                .between("r2", "r3", 12_500_000, 2 * MS, Topology.Builder.defaultShares()).build();
    }

    private static SubscriptionRequest every(long id, Duration interval, String link) {
        return new SubscriptionRequest(id, VariableId.of(5), "r1", "r3", 260, QosSpec.builder().interval(interval)
                .latencyBound(Duration.ofMillis(100)).serviceClass(ServiceClass.LRT).build(), link, MS);
    }

    private static long[] reservations(Topology t, AdmissionController ac) {
        return t.links().stream().flatMapToLong(l -> java.util.Arrays.stream(ServiceClass.values())
                .mapToLong(c -> ac.reserved(l, c))).toArray();
    }

    @Test
    void aFlowGathersAtMost64DistinctRatesOnALink() {
        Topology t = line();
        AdmissionController ac = new AdmissionController(t);
        for (int i = 1; i <= 64; i++) { // a subscriber link each: only the links between routers gather them all
            assertInstanceOf(Admitted.class, ac.admit(every(i, Duration.ofMillis(i), "l" + i)), "rate " + i);
        }
        assertInstanceOf(Admitted.class, ac.admit(every(100, Duration.ofMillis(64), "l100")), "a rate the flow has");
        long[] before = reservations(t, ac);
        Rejected r = assertInstanceOf(Rejected.class, ac.admit(every(65, Duration.ofMillis(65), "l65")));
        assertEquals("link r1->r2: the flow of variable 5 would gather 65 distinct rates, more than the 64 one flow"
                + " can carry", r.reason());
        assertTrue(r.uncarriable(), "what no flow can carry, not what the network lacks room for");
        assertArrayEquals(before, reservations(t, ac), "nothing reserved");
        assertEquals(65, ac.admittedCount());
        assertTrue(ac.release(7));
        assertInstanceOf(Admitted.class, ac.admit(every(65, Duration.ofMillis(65), "l65")), "room for a rate again");
    }

    @Test
    void theSubscriberRoutersDeliveryFlowGathersAtMost64DistinctRatesToo() {
        Topology t = line();
        AdmissionController ac = new AdmissionController(t);
        for (int i = 1; i <= 64; i++) {
            assertInstanceOf(Admitted.class, ac.admit(every(i, Duration.ofMillis(i), "cc")), "rate " + i);
        }
        long[] before = reservations(t, ac);
        Rejected r = assertInstanceOf(Rejected.class, ac.admit(every(65, Duration.ofMillis(65), "cc")));
        assertEquals("link cc at router r3: the flow of variable 5 would gather 65 distinct rates, more than the 64"
                + " one flow can carry", r.reason());
        assertTrue(r.uncarriable());
        assertArrayEquals(before, reservations(t, ac), "nothing reserved");
        assertInstanceOf(Admitted.class, ac.admit(every(66, Duration.ofMillis(64), "cc")), "a rate the flow has");
    }

    @Test
    void aRateAboveThePublishersIsRefusedNotCapped() {
        Topology t = line();
        AdmissionController ac = new AdmissionController(t);
        long sixtyHz = org.gridstat.core.filter.SampleGrid.ofRate(60).intervalNanos();
        SubscriptionRequest fast = new SubscriptionRequest(1, VariableId.of(5), "r1", "r3", 260, QosSpec.builder()
                .rateHz(120).latencyBound(Duration.ofMillis(100)).build(), "cc", sixtyHz);
        Rejected r = assertInstanceOf(Rejected.class, ac.admit(fast));
        assertEquals("variable 5 is published at 60 Hz; 120 Hz asked (a higher rate is refused, not capped)", r.reason());
        assertEquals(0, ac.admittedCount());
        assertArrayEquals(new long[reservations(t, ac).length], reservations(t, ac), "nothing reserved");
        SubscriptionRequest same = new SubscriptionRequest(2, VariableId.of(5), "r1", "r3", 260, QosSpec.builder()
                .rateHz(60).latencyBound(Duration.ofMillis(100)).build(), "cc", sixtyHz);
        assertInstanceOf(Admitted.class, ac.admit(same), "the publisher's own rate");
    }

    @Test
    void aSubscriberLinkThatIsTheRoutersLinkToANeighbourIsRefused() {
        AdmissionController ac = new AdmissionController(line());
        Rejected r = assertInstanceOf(Rejected.class, ac.admit(every(1, Duration.ofMillis(10), "r2")));
        assertEquals("subscriber link 'r2' at router r3 is its link to router r2", r.reason());
    }

    /**
     * s -> a -> b -> t costs 3 ms, but uses both a and b: the only path left beside it is
     * s -> c -> t, 10.5 ms. The least-cost disjoint pair is those two (13.5 ms in all); s -> a -> t
     * and s -> b -> t take 7 ms each (14 ms in all). No queueing budgets, so a path costs its delays
     * and a 288-byte frame's transmission on each link, 2,304 ns at 1 Gbit/s: 3,006,912 ns,
     * 10,504,608 ns (13,511,520 in all) and 7,004,608 ns each (14,009,216 in all). Within an 8 ms
     * bound a 1 ms hop (1,002,304 ns of the 7,004,608) may hold an event 8 x 1,002,304 / 7,004,608
     * - 1 ms = 144,736 ns, time enough for a frame already on the wire (62 us at this bandwidth) and
     * the event's own.
     */
    private static Topology trap() {
        Topology.Builder b = Topology.builder();
        for (String r : List.of("s", "a", "b", "c", "t")) {
            b.router(r, 1_000_000, 0, "");
        }
        var shares = Topology.Builder.defaultShares();
        long gbit = 125_000_000;
        return b.link("s", "a", gbit, 1 * MS, shares).link("a", "b", gbit, 1 * MS, shares)
                .link("b", "t", gbit, 1 * MS, shares).link("a", "t", gbit, 6 * MS, shares)
                .link("s", "b", gbit, 6 * MS, shares).link("s", "c", gbit, 5 * MS, shares)
                .link("c", "t", gbit, 5_500_000, shares).build();
    }

    @Test
    void findsDisjointPathsThatEachMeetTheBoundWhenTheLeastCostPairDoesNot() {
        AdmissionController ac = new AdmissionController(trap());
        Admitted a = assertInstanceOf(Admitted.class, ac.admit(request(1, 1, "s", "t", 2, 8)));
        assertEquals(List.of(List.of("s", "a", "t"), List.of("s", "b", "t")),
                a.paths().stream().map(p -> p.stream().map(Hop::router).toList()).toList());
    }

    @Test
    void aRefusalForTheBoundSaysWhenNoPathsWithinItExist() {
        AdmissionController ac = new AdmissionController(trap());
        Rejected r = assertInstanceOf(Rejected.class, ac.admit(request(1, 1, "s", "t", 2, 6)));
        assertEquals("path 2 (s->c->t) needs 10.5 ms of delay, transmission and queueing budgets, more than the 6.0 ms"
                + " bound; no 2 node-disjoint paths within the bound exist over links with room for the stream", r.reason());
        assertEquals(0, ac.admittedCount());
    }
}
