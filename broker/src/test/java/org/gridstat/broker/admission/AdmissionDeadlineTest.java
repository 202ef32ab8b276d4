package org.gridstat.broker.admission;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.admission.AdmissionResult.Admitted;
import org.gridstat.broker.admission.AdmissionResult.Hop;
import org.gridstat.broker.admission.AdmissionResult.Rejected;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.junit.jupiter.api.Test;

/**
 * Admission refuses what bandwidth alone would admit when the hop deadlines on a link cannot all be
 * met, and says where: the link, the class and the busy interval.
 *
 * <p>Most cases use a -> b at 1 Mbit/s (125,000 B/s; HRT 50 % = 500 kbit/s, LRT 30 %), a with a
 * 1 ms queueing budget, b with none and no delay: a subscription's bound is its hop deadline on the
 * link. A frame already on the wire there blocks for (1,500 + 6 B of pacer burst) / 125,000 B/s =
 * 12.048 ms; a 260-byte frame (288 B with IPv4/UDP) takes 4.608 ms at the HRT share, 7.68 ms at LRT's.
 */
class AdmissionDeadlineTest {
    private static final long MS = 1_000_000L;

    private static Topology line(long bandwidth) {
        return Topology.builder().router("a", 1_000_000_000L, MS, "").router("b", 1_000_000_000L, 0, "")
                .between("a", "b", bandwidth, 0, Topology.Builder.defaultShares()).build();
    }

    private static SubscriptionRequest request(long id, long variable, int frame, double hz, long boundNanos, ServiceClass c) {
        return new SubscriptionRequest(id, VariableId.of(variable), "a", "b", frame, QosSpec.builder().rateHz(hz)
                .latencyBound(Duration.ofNanos(boundNanos)).serviceClass(c).build());
    }

    private static SubscriptionRequest hrt(long id, long variable, long boundMs) {
        return request(id, variable, 260, 10, boundMs * MS, ServiceClass.HRT);
    }

    @Test
    void streamsAreAdmittedOneByOneUntilTheirHopDeadlinesCannotAllBeMet() {
        Topology t = line(125_000);
        Link ab = t.link("a", "b");
        AdmissionController ac = new AdmissionController(t);
        // Six simultaneous frames and the blocking take 12.048 + 6 x 4.608 = 39.696 ms of the 40 ms.
        for (int i = 1; i <= 6; i++) {
            assertInstanceOf(Admitted.class, ac.admit(hrt(i, i, 40)), "stream " + i);
        }
        Rejected seventh = assertInstanceOf(Rejected.class, ac.admit(hrt(7, 7, 40)));
        assertEquals("link a->b, HRT: in the first 40.0 ms after a busy period starts the flows need 44.3 ms of"
                + " transmission, more than 40.0 ms (at the class's 500.0 kbit/s, after 12.0 ms for a frame already on"
                + " the wire)", seventh.reason());
        assertFalse(seventh.uncarriable(), "refused for want of time, as for want of room");
        long free = ab.classCapacity(ServiceClass.HRT) - ac.reserved(ab, ServiceClass.HRT);
        assertEquals(62_500 - 6 * 2_880, free, "bandwidth alone would admit 21 such streams");
        assertEquals(6, ac.admittedCount());

        // A looser bound fits: the seventh is due later than the busy period of all seven lasts.
        assertInstanceOf(Admitted.class, ac.admit(hrt(8, 7, 45)));
        assertTrue(ac.release(8));
        // Freeing a stream makes room.
        assertTrue(ac.release(3));
        assertInstanceOf(Admitted.class, ac.admit(hrt(7, 7, 40)));
    }

    @Test
    void aClassFilledToItsWholeShareLeavesNoTimeForTheBlockingAndIsRefused() {
        Topology t = line(125_000);
        AdmissionController ac = new AdmissionController(t);
        // 597 + 28 = 625 B at 10 Hz: 6,250 B/s, a tenth of the HRT share; 10 ms a frame at the share.
        for (int i = 1; i <= 9; i++) {
            assertInstanceOf(Admitted.class, ac.admit(request(i, i, 597, 10, 1_000 * MS, ServiceClass.HRT)));
        }
        Rejected tenth = assertInstanceOf(Rejected.class, ac.admit(request(10, 10, 597, 10, 1_000 * MS, ServiceClass.HRT)));
        assertEquals("link a->b, HRT: the flows need 100.0 % of the class's 500.0 kbit/s, so a busy period never ends",
                tenth.reason());
        Link ab = t.link("a", "b");
        assertEquals(6_250, ab.classCapacity(ServiceClass.HRT) - ac.reserved(ab, ServiceClass.HRT),
                "exactly the room the bandwidth test asks");
    }

    @Test
    void lrtIsChargedWhatHrtCanSendFirst() {
        Topology t = line(125_000);
        SubscriptionRequest lrt = request(100, 100, 260, 10, 25 * MS, ServiceClass.LRT);
        // Alone: 12.048 ms of blocking + 7.68 ms at the LRT share, within 25 ms.
        assertInstanceOf(Admitted.class, new AdmissionController(t).admit(lrt));

        // Behind three HRT streams: one frame of each (864 B) and the blocking frame (1,506 B) at what
        // HRT's 8,640 B/s leave of the link take 20.368 ms; 28.048 ms in all.
        AdmissionController behind = new AdmissionController(t);
        for (int i = 1; i <= 3; i++) {
            assertInstanceOf(Admitted.class, behind.admit(hrt(i, i, 40)));
        }
        Rejected r = assertInstanceOf(Rejected.class, behind.admit(lrt));
        assertEquals("link a->b, LRT: in the first 25.0 ms after a busy period starts the flows need 28.0 ms of"
                + " transmission, more than 25.0 ms (at the class's 300.0 kbit/s, after 20.4 ms for a frame already on"
                + " the wire and one frame of each HRT flow)", r.reason());

        // The other way round: LRT first, then HRT streams until one would make the LRT stream late.
        // The first leaves it 22.370 ms; the second would make it 25.141 ms: an HRT subscription
        // refused for an LRT deadline.
        AdmissionController after = new AdmissionController(t);
        assertInstanceOf(Admitted.class, after.admit(lrt));
        assertInstanceOf(Admitted.class, after.admit(hrt(1, 1, 40)));
        Rejected second = assertInstanceOf(Rejected.class, after.admit(hrt(2, 2, 40)));
        assertTrue(second.reason().startsWith("link a->b, LRT: in the first 25.0 ms after a busy period starts the flows"
                + " need 25.1 ms of transmission"), second.reason());
    }

    @Test
    void aSharedFlowIsTestedWhenItsHopDeadlineTightensAndNotWhenNothingChanges() {
        AdmissionController ac = new AdmissionController(line(125_000));
        for (int i = 1; i <= 6; i++) {
            assertInstanceOf(Admitted.class, ac.admit(hrt(i, i, 40)));
        }
        // Variable 7 due in 100 ms: the busy period of all seven (44.304 ms) ends before it is due.
        assertInstanceOf(Admitted.class, ac.admit(hrt(7, 7, 100)));
        // A second subscriber of variable 7 due in 40 ms makes the flow due in 40 ms: 44.3 ms then.
        Rejected tighter = assertInstanceOf(Rejected.class, ac.admit(hrt(8, 7, 40)));
        assertTrue(tighter.reason().startsWith("link a->b, HRT: in the first 40.0 ms"), tighter.reason());
        // Looser, or best effort (no deadline): the flow stays as it is.
        assertInstanceOf(Admitted.class, ac.admit(hrt(9, 7, 200)));
        assertInstanceOf(Admitted.class, ac.admit(request(10, 7, 260, 10, 40 * MS, ServiceClass.BE)));
        // The 100 ms subscriber leaves: the flow is due in 200 ms, still after the busy period.
        assertTrue(ac.release(7));
        assertInstanceOf(Rejected.class, ac.admit(hrt(11, 11, 40)), "six due in 40 ms, and room for no seventh");
    }

    /**
     * At 10 Mbit/s (B = 1.2496 ms; a 200-byte frame, 228 B on the wire, takes 0.3648 ms at the HRT
     * share): a stream due in 2 ms and three due in 3 ms fit (2.709 ms by 3 ms). A best-effort
     * subscriber asking the first variable at 1,000 Hz makes its flow send a frame every
     * millisecond, two of them due by 3 ms: 3.074 ms.
     */
    @Test
    void aSharedFlowIsTestedWhenItsRateRisesEvenForABestEffortSubscriber() {
        AdmissionController ac = new AdmissionController(line(1_250_000));
        assertInstanceOf(Admitted.class, ac.admit(request(1, 1, 200, 10, 2 * MS, ServiceClass.HRT)));
        for (int i = 2; i <= 4; i++) {
            assertInstanceOf(Admitted.class, ac.admit(request(i, i, 200, 10, 3 * MS, ServiceClass.HRT)));
        }
        Rejected faster = assertInstanceOf(Rejected.class,
                ac.admit(request(5, 1, 200, 1_000, 1_000 * MS, ServiceClass.BE)));
        assertEquals("link a->b, HRT: in the first 3.0 ms after a busy period starts the flows need 3.1 ms of"
                + " transmission, more than 3.0 ms (at the class's 5000.0 kbit/s, after 1.2 ms for a frame already on"
                + " the wire)", faster.reason());
        assertInstanceOf(Admitted.class, ac.admit(request(6, 1, 200, 100, 1_000 * MS, ServiceClass.BE)),
                "at 100 Hz the second frame is due after the busy period");
    }

    /**
     * s->x->t costs least, 6.327 ms: s->x its 1 ms delay, 23,040 ns for a 288-byte frame at
     * 12.5 MB/s and s's 1 ms queueing budget; x->t 1 ms, 2.304 ms at 125,000 B/s and x's 1 ms. But
     * x->t is slow: a frame on the wire there blocks for 12 ms, and with the event's own 4.6 ms at
     * the HRT share that is 16.7 ms, more than the 20 x 4.304 / 6.327 - 1 = 12.6 ms an event may
     * spend at x. s->y->t, longer (3 ms links: 2 x 4.023 = 8.046 ms; with 2 ms links it would cost
     * 6.046 ms, less than s->x->t, and be found first), is fast.
     */
    @Test
    void aPathFailingTheTestIsSearchedAroundAndOtherwiseRefusedNamingTheLink() {
        for (boolean detour : new boolean[] {true, false}) {
            Topology.Builder b = Topology.builder();
            for (String r : List.of("s", "x", "y")) {
                b.router(r, 1_000_000_000L, MS, "");
            }
            b.router("t", 1_000_000_000L, 0, "");
            var shares = Topology.Builder.defaultShares();
            b.link("s", "x", 12_500_000, MS, shares).link("x", "t", 125_000, MS, shares)
                    .link("s", "y", 12_500_000, 3 * MS, shares).link("y", "t", detour ? 12_500_000 : 125_000, 3 * MS, shares);
            AdmissionController ac = new AdmissionController(b.build());
            SubscriptionRequest r = new SubscriptionRequest(1, VariableId.of(1), "s", "t", 260, QosSpec.builder().rateHz(10)
                    .latencyBound(Duration.ofMillis(20)).serviceClass(ServiceClass.HRT).build());
            AdmissionResult result = ac.admit(r);
            if (detour) {
                Admitted a = assertInstanceOf(Admitted.class, result);
                assertEquals(List.of("s", "y", "t"), a.paths().get(0).stream().map(Hop::router).toList());
                SubscriptionRequest bestEffort = new SubscriptionRequest(2, VariableId.of(2), "s", "t", 260, QosSpec.builder()
                        .rateHz(10).latencyBound(Duration.ofMillis(20)).serviceClass(ServiceClass.BE).build());
                Admitted untested = assertInstanceOf(Admitted.class, ac.admit(bestEffort));
                assertEquals(List.of("s", "x", "t"), untested.paths().get(0).stream().map(Hop::router).toList(),
                        "the least-cost path, which the HRT subscription was searched around");
            } else {
                Rejected no = assertInstanceOf(Rejected.class, result);
                assertTrue(no.reason().startsWith("link x->t, HRT: in the first 12.6 ms after a busy period starts"),
                        no.reason());
                assertEquals(0, ac.admittedCount());
            }
        }
    }

    /**
     * The controller keeps per link and class the sums of its flows' tasks, and passes a set
     * without the sweep when one job of each fits before anything is due. On random admissions and
     * releases its answers are those of the whole test computed afresh from the subscriptions held.
     * A bound below the path's cost (a's 1 ms queueing budget and the frame's transmission) is
     * refused before the test is asked, and says so.
     */
    @Test
    void theSumsKeptPerLinkGiveTheAnswersOfTheWholeTestComputedAfresh() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        int admitted = 0;
        int late = 0;
        int beyondTheBound = 0;
        // 40 rounds, and more until over 200 admissions and 50 refusals for time were compared with the
        // whole test: 40 alone fell short on some seeds (42 refusals on seed 38954774575245); at most
        // 400, which no seed should need.
        for (int round = 0; round < 40 || round < 400 && (admitted <= 200 || late <= 50); round++) {
            long bandwidth = 200_000 + random.nextInt(3_000_000);
            Topology t = line(bandwidth);
            Link ab = t.link("a", "b");
            AdmissionController ac = new AdmissionController(t);
            java.util.Map<Long, SubscriptionRequest> held = new java.util.LinkedHashMap<>();
            for (long id = 1; id <= 100; id++) {
                if (!held.isEmpty() && random.nextInt(4) == 0) {
                    Long gone = new ArrayList<>(held.keySet()).get(random.nextInt(held.size()));
                    assertTrue(ac.release(gone));
                    held.remove(gone);
                    continue;
                }
                ServiceClass c = random.nextInt(3) == 0 ? ServiceClass.LRT : random.nextInt(8) == 0 ? ServiceClass.BE
                        : ServiceClass.HRT;
                // Few variables, so that flows are shared; rates that divide 60 Hz or not.
                SubscriptionRequest r = request(id, 1 + random.nextInt(12), 60 + random.nextInt(600),
                        new int[] {1, 10, 20, 30, 50, 60}[random.nextInt(6)], MS + random.nextInt(200) * MS, c);
                AdmissionResult result = ac.admit(r);
                if (result instanceof Rejected no && no.reason().startsWith("link a->b class")) {
                    continue; // bandwidth
                }
                String where = "seed " + seed + ", round " + round + ", " + bandwidth + " B/s, " + r + " with " + held.values();
                // The path costs a's queueing budget and the frame's transmission on a->b: a bound below
                // that is refused before the deadline test is asked.
                long cost = MS + ab.minTransitNanos(r.wireBytes());
                if (r.qos().latencyBoundNanos() < cost) {
                    Rejected no = assertInstanceOf(Rejected.class, result, where);
                    assertEquals(String.format("path 1 (a->b) needs %.1f ms of delay, transmission and queueing budgets,"
                            + " more than the %.1f ms bound; no path within the bound exist over links with room for the"
                            + " stream", cost / 1e6, r.qos().latencyBoundNanos() / 1e6), no.reason(), where);
                    beyondTheBound++;
                    continue;
                }
                List<SubscriptionRequest> with = new ArrayList<>(held.values());
                with.add(r);
                String expected = fresh(ab, with, r);
                String actual = result instanceof Rejected no ? no.reason() : null;
                assertEquals(expected == null, actual == null, where + ": expected " + expected + ", got " + actual);
                if (expected != null) {
                    assertEquals(expected.substring(0, expected.indexOf(':')), actual.substring(0, actual.indexOf(':')), where);
                }
                if (result instanceof Admitted) {
                    held.put(id, r);
                    admitted++;
                } else {
                    late++;
                }
            }
        }
        assertTrue(admitted > 200 && late > 50, "seed " + seed + ": " + admitted + " admitted, " + late + " refused for time, "
                + beyondTheBound + " for a bound below the path's cost");
    }

    /**
     * The deadline test's refusal of {@code r} among {@code subscriptions} on a -> b, computed from
     * scratch: the flows per variable (most urgent class, largest frame, tightest HRT/LRT
     * deadline, periods), HRT tested if r's flow is HRT, LRT if any flow is.
     */
    private static String fresh(Link l, List<SubscriptionRequest> subscriptions, SubscriptionRequest r) {
        java.util.Map<Long, SharedFlow> flows = new java.util.HashMap<>();
        for (SubscriptionRequest s : subscriptions) {
            flows.computeIfAbsent(s.variable().value(), v -> new SharedFlow()).add(s, s.qos().latencyBoundNanos());
        }
        SharedFlow mine = flows.get(r.variable().value());
        SharedFlow before = new SharedFlow();
        subscriptions.stream().filter(s -> s != r && s.variable().equals(r.variable()))
                .forEach(s -> before.add(s, s.qos().latencyBoundNanos()));
        if (mine.serviceClass() == ServiceClass.BE
                || (!before.isEmpty() && before.unchangedBy(r, r.qos().latencyBoundNanos()))) {
            return null; // nothing HRT or LRT sees changes
        }
        long capacity = l.bandwidth();
        long sigma = 0;
        long rho = 0;
        for (SharedFlow f : flows.values()) {
            if (f.serviceClass() == ServiceClass.HRT) {
                for (long period : f.periods()) {
                    sigma += f.wireBytes();
                    rho += (f.wireBytes() * 1_000_000_000L + period - 1) / period;
                }
            }
        }
        boolean anyLrt = flows.values().stream().anyMatch(f -> f.serviceClass() == ServiceClass.LRT);
        for (ServiceClass c : new ServiceClass[] {ServiceClass.HRT, ServiceClass.LRT}) {
            if (c == ServiceClass.HRT ? mine.serviceClass() != ServiceClass.HRT : !anyLrt) {
                continue;
            }
            long rate = c == ServiceClass.LRT ? rho : 0;
            if (rate >= capacity) {
                return "link a->b, LRT: the HRT flows may send";
            }
            long served = Math.min(l.classCapacity(c), capacity - rate);
            List<EdfDemandBound.Task> tasks = new ArrayList<>();
            for (SharedFlow f : flows.values()) {
                if (f.serviceClass() == c) {
                    for (long period : f.periods()) {
                        long d = f.hopDeadline() == SharedFlow.NO_DEADLINE ? period : f.hopDeadline();
                        tasks.add(new EdfDemandBound.Task(HopDeadlineTest.nanos(f.wireBytes(), served), period, d));
                    }
                }
            }
            long blocking = HopDeadlineTest.nanos(HopDeadlineTest.blockingBytes(l) + (c == ServiceClass.LRT ? sigma : 0),
                    capacity - rate);
            EdfDemandBound.Outcome o = EdfDemandBound.check(tasks, blocking, HopDeadlineTest.MAX_POINTS);
            if (!(o instanceof EdfDemandBound.Schedulable)) {
                return "link a->b, " + c + ": " + o;
            }
        }
        return null;
    }

    @Test
    void restoredSubscriptionsKeepTheirHopDeadlines() {
        Topology t = line(125_000);
        AdmissionController first = new AdmissionController(t);
        List<SubscriptionRequest> requests = new ArrayList<>();
        List<Admitted> held = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            requests.add(hrt(i, i, 40));
            held.add(assertInstanceOf(Admitted.class, first.admit(requests.get(i - 1))));
        }
        AdmissionController resumed = new AdmissionController(t);
        for (int i = 0; i < 6; i++) {
            resumed.restore(requests.get(i), held.get(i));
        }
        assertEquals(((Rejected) first.admit(hrt(7, 7, 40))).reason(),
                assertInstanceOf(Rejected.class, resumed.admit(hrt(7, 7, 40))).reason());
        for (int i = 1; i <= 6; i++) {
            assertTrue(resumed.release(i));
        }
        assertEquals(0, resumed.reserved(t.link("a", "b"), ServiceClass.HRT));
        assertInstanceOf(Admitted.class, resumed.admit(hrt(7, 7, 40)));
    }

    @Test
    void aModificationIsTestedAndARefusedOneLeavesTheSubscriptionAsItWas() {
        try (QosBroker broker = new QosBroker(line(125_000), new InetSocketAddress("127.0.0.1", 0))) {
            List<Long> ids = new ArrayList<>();
            for (int i = 1; i <= 7; i++) {
                broker.declare("s/pmu" + i, "a", 260, 100 * MS, ServiceClass.HRT, "").join();
                QosSpec qos = QosSpec.builder().rateHz(10).latencyBound(Duration.ofMillis(i == 7 ? 100 : 40))
                        .serviceClass(ServiceClass.HRT).build();
                AdmissionResult r = broker.subscribe("s/pmu" + i, "b", "cc", qos).join();
                ids.add(assertInstanceOf(Admitted.class, r, r.toString()).subscriptionId());
            }
            QosSpec tighter = QosSpec.builder().rateHz(10).latencyBound(Duration.ofMillis(40)).serviceClass(ServiceClass.HRT)
                    .build();
            Rejected no = assertInstanceOf(Rejected.class, broker.modify(ids.get(6), tighter).join());
            assertTrue(no.reason().startsWith("link a->b, HRT: in the first 40.0 ms"), no.reason());
            assertEquals(Duration.ofMillis(100), broker.subscriptions().stream().filter(s -> s.id() == ids.get(6))
                    .findFirst().orElseThrow().request().qos().latencyBound(), "kept as it was");
            QosSpec looser = QosSpec.builder().rateHz(10).latencyBound(Duration.ofMillis(60)).serviceClass(ServiceClass.HRT)
                    .build();
            assertInstanceOf(Admitted.class, broker.modify(ids.get(6), looser).join());
        }
    }
}
