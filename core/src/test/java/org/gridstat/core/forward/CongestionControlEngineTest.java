package org.gridstat.core.forward;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.congestion.BandwidthReassignment;
import org.gridstat.core.congestion.Decision;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.sched.FlowStatistics;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.core.wire.WireFormat;
import org.junit.jupiter.api.Test;

/**
 * The engine running a link's congestion policy on simulated time: a link of 10,000 B/s offered
 * 15,360 B/s on the wire (100-byte frames and their headers), an HRT flow at 2.6 times its
 * reservation and a best-effort flow above its own. Without the
 * policy the HRT flow gets its reservation and what the link has left; with it, the best-effort
 * flow lends, the HRT flow is served in full, and the bandwidth goes back when the surge ends.
 */
class CongestionControlEngineTest {
    private static final long S = 1_000_000_000L;
    private static final long T0 = 1_000 * S;
    private static final int FRAME = 100;
    private static final long PERIOD = 100_000_000L;

    private record Event(long flowVariable) {
    }

    private static final EventReferences<Event> REFS = new EventReferences<>() {
        @Override
        public void retain(Event e) {
        }

        @Override
        public void release(Event e) {
        }
    };

    private final List<Decision> decisions = new ArrayList<>();
    private ForwardingEngine<Event> engine;

    private static FlowEntry flow(long id, long version, long variable, ServiceClass c, long assured, long minimum, long ceiling) {
        long interval = S / 100; // declared at 100 Hz: the rate filter passes every sample sent here
        return new FlowEntry(version, variable, 0, FlowSpec.of(id, c, assured, minimum, ceiling, 20, "A"),
                new long[] {interval}, interval, 0);
    }

    private ForwardingEngine<Event> engine(boolean congestionControl) {
        ForwardingEngine<Event> e = new ForwardingEngine<>(List.of(LinkSpec.withDefaultShares(10_000)), 8, REFS,
                new EstimatorSettings(PERIOD, 0.5), T0);
        if (congestionControl) {
            e.useCongestionControl(BandwidthReassignment::new, (link, d) -> decisions.add(d));
        }
        e.submit(FlowCommand.install(flow(1, 1, 1, ServiceClass.HRT, 3_000, 2_000, 8_000)));
        e.submit(FlowCommand.install(flow(2, 1, 2, ServiceClass.BE, 6_000, 1_000, 6_000)));
        e.applyCommands(T0);
        return e;
    }

    /**
     * Runs from {@code from} to {@code to} (seconds after T0) with the HRT source at {@code hrtHz}
     * and best effort at 60 Hz, sending whenever the link allows, the estimators run before each
     * step; returns frames sent per variable.
     */
    private long[] run(double from, double to, int hrtHz) {
        return run(from, to, hrtHz, true);
    }

    /**
     * The same; with {@code estimatorsFirst} off, as a router's duty cycle runs: the frames of an
     * instant are forwarded and the link pumped first, then the estimators, once a period.
     */
    private long[] run(double from, double to, int hrtHz, boolean estimatorsFirst) {
        long[] sent = new long[3];
        long start = T0 + (long) (from * S);
        long end = T0 + (long) (to * S);
        long nextHrt = start;
        long nextBe = start;
        long nextTick = start + PERIOD;
        long now = start;
        while (now < end) {
            if (estimatorsFirst) {
                engine.tick(now);
            }
            engine.applyCommands(now);
            if (now >= nextHrt) {
                engine.forward(1, now, now + S, new Event(1), FRAME, now, now);
                nextHrt += S / hrtHz;
            }
            if (now >= nextBe) {
                engine.forward(2, now, 0, new Event(2), FRAME, now, now);
                nextBe += S / 60;
            }
            Event e;
            while ((e = engine.dequeue(0, now)) != null) {
                engine.chargeDatagram(0, WireFormat.DATAGRAM_OVERHEAD, 1, now); // a datagram each, as a pump sends it
                sent[(int) e.flowVariable()]++;
            }
            if (!estimatorsFirst && now >= nextTick) {
                engine.tick(now);
                nextTick = now + PERIOD;
            }
            long wake = Math.min(Math.min(nextHrt, nextBe), engine.nextWakeNanos(0, now));
            now = Math.max(now + 1, estimatorsFirst ? Math.min(wake, now + PERIOD) : Math.min(wake, nextTick));
        }
        return sent;
    }

    @Test
    void thePolicyRunsAfterAPeriodThatAnEventEndedBeforeTheEstimatorsRan() {
        engine = engine(true);
        run(0, 0.35, 60, false);
        assertTrue(stats(1).assuredRate() > 3_000, "granted: " + stats(1) + ", decisions " + decisions);
        assertTrue(stats(2).assuredRate() < 6_000, "lent: " + stats(2));
    }

    private FlowStatistics stats(long flowId) {
        return engine.statistics(0).flows().stream().filter(f -> f.flowId() == flowId).findFirst().orElseThrow();
    }

    @Test
    void withoutTheLinksPolicyTheSurgingHrtFlowGetsOnlyWhatIsLeft() {
        engine = engine(false);
        run(0, 2, 60);
        long[] sent = run(2, 4, 60);
        assertTrue(sent[1] < 2 * 60 * 0.75, "HRT held to its reservation and the link's rest: " + sent[1] + " of 120");
        assertEquals(3_000, stats(1).assuredRate());
    }

    @Test
    void theBestEffortFlowLendsTheSurgingHrtFlowWhatItNeedsAndGetsItBackAfter() {
        engine = engine(true);
        run(0, 2, 60);
        long[] sent = run(2, 4, 60);
        assertTrue(sent[1] >= 2 * 60 - 2, "HRT served in full: " + sent[1] + " of 120");
        assertTrue(sent[2] <= 2 * 40 + 2, "best effort got the rest: " + sent[2]);
        long granted = stats(1).assuredRate();
        // 60 frames a second of 100 bytes and their 28 bytes of IP and UDP headers: 7,680 B/s on the wire
        // in steps of what the estimate can tell, one event a period (1,280 B/s), up to the ceiling
        assertTrue(granted >= 7_680 && granted <= Math.min(8_000, 7_680 + 1_280), "granted its demand on the wire: " + granted);
        assertEquals(3_000, stats(1).reservedRate());
        assertEquals(10_000 - granted - 10_000 / org.gridstat.core.congestion.BandwidthReassignment.HEADROOM_DIVISOR,
                stats(2).assuredRate(), "lent what the link's 1,000 B/s of spare, less its headroom, did not cover");
        Decision lent = decisions.stream().filter(d -> d.kind() == Decision.Kind.LENT).findFirst().orElseThrow();
        assertEquals(2, lent.flowId());
        assertEquals(1, lent.forFlowId());
        assertTrue(engine.counters().get(EngineCounter.RATES_REASSIGNED) >= 2);

        decisions.clear();
        run(4, 6, 20); // the surge ends
        assertEquals(3_000, stats(1).assuredRate());
        assertEquals(6_000, stats(2).assuredRate(), "the bandwidth came back");
        assertTrue(decisions.stream().anyMatch(d -> d.kind() == Decision.Kind.RETURNED && d.flowId() == 2), "" + decisions);
    }

    @Test
    void aNeedNeitherTheLinkNorAVictimCoversIsShownAsTheFlowsShortfallUntilItIsMet() {
        engine = engine(true);
        engine.submit(FlowCommand.install(flow(1, 2, 1, ServiceClass.HRT, 3_000, 2_000, 30_000))); // room to want more
        engine.applyCommands(T0);
        run(0, 2, 100); // 100 frames of 128 bytes on the wire: 12,800 B/s wanted on a 10,000 B/s link
        FlowStatistics hrt = stats(1);
        assertEquals(10_000 - 1_000, hrt.assuredRate(), "the link's spare and all best effort can lend, down to its minimum");
        assertTrue(hrt.shortfall() >= 12_800 - 9_000 && hrt.shortfall() <= 12_800 - 9_000 + 1_280, "short: " + hrt);
        assertTrue(decisions.stream().anyMatch(d -> d.kind() == Decision.Kind.UNMET && d.shortfall() == hrt.shortfall()),
                "" + decisions);
        run(2, 4, 20);
        assertEquals(0, stats(1).shortfall(), "met again");
        assertTrue(decisions.stream().anyMatch(d -> d.kind() == Decision.Kind.MET), "" + decisions);
    }

    @Test
    void aBrokerResyncOfTheReservationDoesNotEraseTheLocalLayer() {
        engine = engine(true);
        run(0, 2, 60);
        long granted = stats(1).assuredRate();
        long lent = stats(2).assuredRate();
        assertTrue(granted > 3_000 && lent < 6_000, granted + " / " + lent);
        decisions.clear();
        engine.submit(FlowCommand.install(flow(1, 2, 1, ServiceClass.HRT, 3_000, 2_000, 8_000))); // the same reservation again
        engine.applyCommands(T0 + 2 * S);
        assertEquals(granted, stats(1).assuredRate(), "kept over the same reservation");
        assertEquals(lent, stats(2).assuredRate());
        assertEquals(List.of(), decisions, "nothing changed, nothing decided");
        engine.submit(FlowCommand.install(flow(1, 3, 1, ServiceClass.HRT, 3_500, 2_000, 8_000))); // a larger reservation
        engine.applyCommands(T0 + 2 * S);
        assertEquals(granted, stats(1).assuredRate(), "re-applied at once over the new reservation");
        assertEquals(3_500, stats(1).reservedRate());
        assertEquals(List.of(new Decision(Decision.Kind.GRANTED, 1, ServiceClass.HRT, 3_500, granted, -1)), decisions,
                "the re-application is a decision like any other (the link's spare shrank as much as the need)");
    }
}
