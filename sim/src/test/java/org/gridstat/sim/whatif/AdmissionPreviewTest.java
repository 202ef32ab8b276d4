package org.gridstat.sim.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.install.FlowInstaller;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.sim.reproduce.CccTestbed;
import org.gridstat.sim.scenario.Scenario;
import org.junit.jupiter.api.Test;

class AdmissionPreviewTest {
    private static final long S = 1_000_000_000L;
    private static final PreviewSettings SHORT = PreviewSettings.DEFAULT.withDuration(Duration.ofSeconds(2));
    /** The thesis testbed's broker admitted by bandwidth alone, and its routers reassign every 100 ms. */
    private static final PreviewSettings TESTBED = PreviewSettings.DEFAULT.withDuration(Duration.ofSeconds(5))
            .withAdmission(Scenario.Admission.BANDWIDTH_ONLY).withCongestion(CccTestbed.congestion(true, CccTestbed.PERIOD));

    /**
     * r1 -> r2 -> r3 at 1,000,000 B/s, of which HRT may reserve {@code hrtPercent}; an HRT PMU at
     * r1, 100-byte frames at 30 Hz, subscribed at r3.
     */
    private static State line(int hrtPercent, State.Subscription... more) {
        List<State.Subscription> subscriptions = new ArrayList<>();
        subscriptions.add(new State.Subscription("17", "s1/pmu1", "r3", "cc", States.qos(30, 50, ServiceClass.HRT)));
        subscriptions.addAll(List.of(more));
        return new State(States.line(1_000_000, hrtPercent), List.of(
                States.variable("s1/pmu1", "r1", 100, 30, ServiceClass.HRT, "s1"),
                States.variable("s2/pmu2", "r1", 200, 60, ServiceClass.HRT, "s2")), subscriptions);
    }

    private static final Candidate PMU2 = new Candidate("s2/pmu2", "r3", "cc", States.qos(60, 50, ServiceClass.HRT));

    @Test
    void aCandidateThatFitsIsAdmittedAndTheLinksItCrossesTightenByExactlyItsReservation() {
        Preview p = AdmissionPreview.preview(line(5), PMU2, null, SHORT);

        assertTrue(p.admitted(), p.lines().toString());
        assertNull(p.refusal());
        assertEquals(List.of("r1->r2->r3"), p.candidatePaths());
        long reservation = (200 + 28) * 60; // frame and IP/UDP headers, 60 a second
        for (LinkLoad l : p.links()) {
            boolean crossed = l.serviceClass() == ServiceClass.HRT && Set.of("r1->r2", "r2->r3").contains(l.link());
            assertEquals(crossed ? reservation : 0, l.change(), l.toString());
        }
        LinkLoad r1r2 = p.tightened().get(0);
        assertEquals(50_000, r1r2.shareBytesPerSecond(), "HRT's 5 % of 1,000,000 B/s");
        assertEquals((100 + 28) * 30, r1r2.reservedBefore());
        assertEquals(List.of(
                "admitted",
                "path r1->r2->r3",
                "link r1->r2 HRT reservation 8 % → 35 % of its share (+13,680 B/s, 32,480 B/s left)",
                "link r2->r3 HRT reservation 8 % → 35 % of its share (+13,680 B/s, 32,480 B/s left)",
                "no flow would miss a deadline, overflow, lend bandwidth or be held at its source with the candidate",
                "simulated 2 s with congestion control, seed 1"), p.lines());
        FlowOutlook candidate = p.flow(Candidate.LABEL);
        assertTrue(candidate.candidate());
        assertEquals(120, candidate.with().offered(), "60 Hz for 2 s");
        assertEquals(120, candidate.with().onTime());
        assertNull(candidate.without(), "the candidate has no figures without itself");
        assertEquals(60, p.flow("17").with().onTime());
        assertEquals(p.flow("17").with(), p.flow("17").without(), "an admitted HRT stream leaves the other's deadlines intact");
    }

    @Test
    void aCancelledPreviewEndsWithinASimulatedSecondOfBeingCancelled() {
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
        // cancelled when asked the third time: before the runs, then after each simulated second
        assertThrows(java.util.concurrent.CancellationException.class, () -> AdmissionPreview.preview(line(5), PMU2, null,
                PreviewSettings.DEFAULT, () -> asked.incrementAndGet() >= 3));
        assertTrue(asked.get() <= 4, "not asked through the 10 s runs: " + asked.get());
        assertThrows(java.util.concurrent.CancellationException.class,
                () -> AdmissionPreview.preview(line(5), PMU2, null, SHORT, () -> true), "cancelled before it began");
        assertTrue(AdmissionPreview.preview(line(5), PMU2, null, SHORT, () -> false).admitted(), "never cancelled");
    }

    @Test
    void aCandidateThatDoesNotFitIsRefusedWithTheBrokersReason() {
        Preview p = AdmissionPreview.preview(line(1), PMU2, null, SHORT);

        String reason = brokersAnswer(line(1), PMU2);
        assertTrue(reason.startsWith("link r1->r2 class HRT: needs 109.4 kbit/s, 49.3 kbit/s free"), reason);
        assertFalse(p.admitted());
        assertEquals(reason, p.refusal());
        assertEquals("refused: " + reason, p.lines().get(0));
        assertTrue(p.tightened().isEmpty(), "nothing reserved for a refused candidate");
        assertTrue(p.candidatePaths().isEmpty());
        assertNull(p.flow(Candidate.LABEL), "a refused candidate is not simulated");
        assertNull(p.flow("17").without(), "no comparison: the network stays as it is");
        assertEquals(60, p.flow("17").with().onTime());
    }

    /** What a broker of its own says of the candidate after the state: the reason the preview must give verbatim. */
    private static String brokersAnswer(State state, Candidate c) {
        try (QosBroker b = QosBroker.inProcess(state.topology(), new FlowInstaller() {
            @Override
            public void install(String router, ControlMessage.InstallFlow flow) {
            }

            @Override
            public void remove(String router, long flowId, long version) {
            }
        })) {
            for (State.Variable v : state.variables()) {
                b.declare(v.name(), v.router(), v.frameBytes(), v.intervalNanos(), v.serviceClass(), v.correlationGroup()).join();
            }
            for (State.Subscription s : state.subscriptions()) {
                b.subscribe(s.variable(), s.router(), s.link(), s.qos()).join();
            }
            AdmissionResult r = b.subscribe(c.variable(), c.router(), c.link(), c.qos()).join();
            return ((AdmissionResult.Rejected) r).reason();
        }
    }

    @Test
    void anExistingSubscriptionTheNetworkNoLongerAdmitsIsNamedAndTheRestPreviewed() {
        // A second 60 Hz stream of 200-byte frames asked before the candidate: in HRT's 1 % it no longer fits.
        State state = line(1, new State.Subscription("18", "s2/pmu2", "r3", "cc", States.qos(60, 50, ServiceClass.HRT)));
        Candidate small = new Candidate("s1/pmu1", "r2", "ops", States.qos(30, 50, ServiceClass.HRT));

        Preview p = AdmissionPreview.preview(state, small, null, SHORT);

        assertEquals(1, p.stateProblems().size());
        assertEquals("subscription 18", p.stateProblems().get(0).what());
        assertTrue(p.stateProblems().get(0).reason().startsWith("link r1->r2 class HRT"), p.stateProblems().toString());
        assertTrue(p.lines().contains("the current state does not admit as it is: subscription 18 is refused: "
                + p.stateProblems().get(0).reason() + "; previewed without it"), p.lines().toString());
        assertNull(p.flow("18"));
        assertTrue(p.admitted());
        assertEquals(List.of("r1->r2"), p.candidatePaths());
        assertTrue(p.tightened().isEmpty(), "the candidate rides the flow r1->r2 already carries at 30 Hz");
        assertTrue(p.lines().contains("no link's reservation changes: the candidate rides flows already reserved"));
    }

    /**
     * The thesis testbed, A's HRT PMU surging from 20 to 60 Hz: the bottleneck overlay->gwCC has
     * room for it only once victims lend; the routers take from best effort first (the lowest
     * priority), never from an HRT flow, and every victim lends to A-HRT on the bottleneck.
     */
    @Test
    void aSurgeOnAnHrtVariableOverTheBottleneckNamesTheVictimFlows() {
        State state = States.cccTestbed(States.variable("A-LOG", "gwA", 48, 5, ServiceClass.BE, "A"));
        Candidate log = new Candidate("A-LOG", "gwCC", "cc", States.qos(5, 1000, ServiceClass.BE));

        Preview calm = AdmissionPreview.preview(state, log, null, TESTBED);
        Preview surge = AdmissionPreview.preview(state, log, new Surge("A-HRT", 60), TESTBED);

        assertTrue(calm.admitted() && surge.admitted());
        assertTrue(calm.troubled().isEmpty(), "at 20 Hz every flow is within its reservation: " + calm.lines());
        Set<String> victims = new TreeSet<>();
        for (FlowOutlook o : surge.flows()) {
            for (Lending l : o.lent()) {
                victims.add(o.label());
                assertEquals(ServiceClass.BE, o.serviceClass(), "best effort lends first: " + o);
                assertEquals("overlay->gwCC", l.link());
                assertEquals("A-HRT", l.toVariable());
                assertTrue(l.lowestBytes() < l.assuredBytes(), l.toString());
                assertTrue(l.lowestBytes() >= Math.floor(l.assuredBytes() * 0.115), "never below its minimum rate: " + l);
            }
        }
        assertTrue(victims.containsAll(Set.of("A-BE", Candidate.LABEL)), victims.toString());
        FlowOutlook aBe = surge.flow("A-BE");
        Lending lent = aBe.lent().get(0);
        assertEquals(5_760, lent.assuredBytes(), "its 20 Hz reservation");
        assertTrue(surge.lines().contains(String.format(java.util.Locale.ROOT,
                "flow A-BE→gwCC/cc [A-BE] would lend bandwidth on overlay->gwCC to A-HRT: down to %,d of 5,760 B/s from %.1f s",
                lent.lowestBytes(), lent.firstAtNanos() / 1e9)), surge.lines().toString());
        assertEquals(0, surge.flow("A-HRT").with().missed(), "the victims cover A-HRT's 60 Hz: " + surge.flow("A-HRT"));
        assertTrue(surge.shortfalls().isEmpty(), surge.shortfalls().toString());
    }

    /**
     * At 200 Hz A-HRT asks 57,600 B/s, more than the 40,320 B/s bottleneck: with a ceiling of ten
     * times its reservation (the thesis's is four, which caps its need below what victims can
     * lend), the victims and the spare capacity cannot cover it, the router raises its alarm, and
     * A-HRT misses deadlines, with the candidate and without it alike.
     */
    @Test
    void aSurgeBeyondWhatVictimsCanLendMissesDeadlinesAndRaisesTheAlarm() {
        State state = States.cccTestbed(States.variable("A-LOG", "gwA", 48, 5, ServiceClass.BE, "A"));
        Candidate log = new Candidate("A-LOG", "gwCC", "cc", States.qos(5, 1000, ServiceClass.BE));
        Scenario.Congestion tenfold = new Scenario.Congestion(true, true, new EstimatorSettings(CccTestbed.PERIOD, 0.5),
                CccTestbed.THESIS_RATES.with(ServiceClass.HRT, 1.0, 10.0));

        Preview p = AdmissionPreview.preview(state, log, new Surge("A-HRT", 200), TESTBED.withCongestion(tenfold));

        FlowOutlook a = p.flow("A-HRT");
        assertTrue(a.with().missRatio() > 0.2, a.toString());
        assertNotNull(a.without());
        assertTrue(a.without().missRatio() > 0.2, a.toString());
        assertEquals(List.of("overlay->gwCC"), p.shortfalls().stream().map(Shortfall::link).distinct().toList());
        assertEquals("A-HRT", p.shortfalls().get(0).variable());
        assertTrue(p.lines().stream().anyMatch(l -> l.startsWith("flow A-HRT→gwCC/cc [A-HRT] would miss ")
                && l.contains("% of deadlines under the surge (")), p.lines().toString());
        assertTrue(p.lines().stream().anyMatch(l -> l.startsWith("link overlay->gwCC cannot cover A-HRT: it needs ")),
                p.lines().toString());
        assertEquals("simulated 5 s with congestion control, A-HRT at 200 Hz, seed 1", p.lines().get(p.lines().size() - 1));
    }

    @Test
    void theSameInputsGiveTheSamePreview() {
        State state = States.cccTestbed(States.variable("A-LOG", "gwA", 48, 5, ServiceClass.BE, "A"));
        Candidate log = new Candidate("A-LOG", "gwCC", "cc", States.qos(5, 1000, ServiceClass.BE));

        Preview a = AdmissionPreview.preview(state, log, new Surge("A-HRT", 60), TESTBED);
        Preview b = AdmissionPreview.preview(state, log, new Surge("A-HRT", 60), TESTBED);

        assertEquals(a.lines(), b.lines());
        assertEquals(a.links(), b.links());
        assertEquals(a.flows(), b.flows());
        assertEquals(a.shortfalls(), b.shortfalls());
        assertEquals(a, new Preview(b.admitted(), b.refusal(), b.candidatePaths(), b.stateProblems(), b.links(), b.flows(),
                b.shortfalls(), b.surge(), b.simulatedNanos(), b.seed(), b.congestionControl(), b.notes(), a.wallTime()),
                "all but the wall time");
    }

    @Test
    void aStateBeyondTheLimitIsRefusedWithTheLimitInTheMessage() {
        List<State.Subscription> many = new ArrayList<>();
        for (int i = 0; i < 2_001; i++) {
            many.add(new State.Subscription("s" + i, "s1/pmu1", "r3", "cc", States.qos(30, 50, ServiceClass.HRT)));
        }
        State big = new State(States.line(1_000_000, 5), line(5).variables(), many);

        PreviewTooLargeException e = assertThrows(PreviewTooLargeException.class,
                () -> AdmissionPreview.preview(big, PMU2, null));

        assertEquals("the state holds 2,001 subscriptions; a preview takes at most 2,000", e.getMessage());
    }

    @Test
    void aNetworkTooBusyToSimulateASecondIsRefusedAndABusyOneIsSimulatedShorter() {
        // The state's flows: r1->r2, r2->r3 and r3's delivery, 30 copies a second each; the candidate's three at 60.
        PreviewLimits tiny = new PreviewLimits(2_000, 10_000, 60 * S, 100);
        PreviewTooLargeException e = assertThrows(PreviewTooLargeException.class,
                () -> AdmissionPreview.preview(line(5), PMU2, null, SHORT.withLimits(tiny)));
        assertEquals("the network would forward 270 copies a second; a preview simulates at most 100 copies", e.getMessage());

        Preview p = AdmissionPreview.preview(line(5), PMU2, null, SHORT.withDuration(Duration.ofSeconds(10))
                .withLimits(new PreviewLimits(2_000, 10_000, 60 * S, 600)));
        assertEquals(2 * S, p.simulatedNanos(), "the whole seconds 600 copies afford at 270 a second");
        assertTrue(p.notes().contains("simulated 2 s of the 10 s asked: the network forwards 270 copies a second, and a"
                + " preview simulates at most 600"), p.notes().toString());
    }

    @Test
    void aRunThatWouldFillHalfTheHeapIsRefusedAndTwoThatFillMoreThanAQuarterTakeTurns() {
        long mb = 1L << 20;
        assertEquals(150_000 * 2_000 + 80_000 * 7_000, PreviewLimits.bytesPerRun(2_000, 7_000));
        assertTrue(PreviewLimits.sideBySide(128 * mb, 1024 * mb));
        assertFalse(PreviewLimits.sideBySide(129 * mb, 1024 * mb), "two runs would hold more than a quarter of the heap");
        PreviewTooLargeException e = assertThrows(PreviewTooLargeException.class,
                () -> PreviewLimits.sideBySide(513 * mb, 1024 * mb));
        assertEquals("the simulation would hold about 513 MB of histograms for its subscriptions and flows; this JVM's"
                + " heap is 1,024 MB", e.getMessage());
    }

    @Test
    void theDurationIsWholeSecondsAndCappedAtAMinute() {
        assertEquals(Duration.ofSeconds(10), PreviewSettings.DEFAULT.cappedDuration());
        assertEquals(Duration.ofSeconds(2), PreviewSettings.DEFAULT.withDuration(Duration.ofMillis(1_500)).cappedDuration());
        assertEquals(Duration.ofSeconds(60), PreviewSettings.DEFAULT.withDuration(Duration.ofMinutes(5)).cappedDuration());
    }

    @Test
    void aSurgeOnAnUndeclaredVariableOrACandidateNamedAsAnExistingSubscriptionIsAMistake() {
        assertThrows(IllegalArgumentException.class,
                () -> AdmissionPreview.preview(line(5), PMU2, new Surge("nope", 60), SHORT));
        assertThrows(IllegalArgumentException.class, () -> AdmissionPreview.preview(line(5),
                new Candidate("17", "s2/pmu2", "r3", "cc", States.qos(60, 50, ServiceClass.HRT)), null, SHORT));
        assertThrows(IllegalArgumentException.class, () -> new Surge("s1/pmu1", 20_000));
    }
}
