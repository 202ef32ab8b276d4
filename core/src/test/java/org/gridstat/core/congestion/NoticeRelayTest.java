package org.gridstat.core.congestion;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.congestion.NoticeRelay.Verdict;
import org.gridstat.core.forward.EventReferences;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.sched.LinkSpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Back-pressure on a router of two out-links: what its own lending and its next hops' notices hold
 * its flows to, sample by sample, and what it advises the hops its variables come from.
 */
class NoticeRelayTest {
    private static final long S = 1_000_000_000L;
    private static final long T0 = 1_700_000_000L * S; // epoch time: the sample grids are the epoch's
    private static final long HZ60 = 16_666_667;
    private static final int FRAME = 100; // 128 B on the wire with the IP and UDP headers
    private static final int UPSTREAM = 7;

    private static final EventReferences<Object> REFS = new EventReferences<>() {
        @Override
        public void retain(Object e) {
        }

        @Override
        public void release(Object e) {
        }
    };

    private record Advised(int hop, long variable, int rateHz) {
    }

    private final List<Advised> advice = new ArrayList<>();
    private ForwardingEngine<Object> engine;
    private NoticeRelay relay;

    private static FlowEntry flow(long id, long version, long variable, int link, ServiceClass c, long assured, int... upstream) {
        return new FlowEntry(version, variable, link, FlowSpec.of(id, c, assured, assured / 10, assured * 2, 500, ""),
                new long[0], HZ60, 0, 0, upstream);
    }

    @BeforeEach
    void setUp() {
        engine = new ForwardingEngine<>(List.of(LinkSpec.withDefaultShares(100_000), LinkSpec.withDefaultShares(100_000)), 8,
                REFS, new EstimatorSettings(100_000_000L, 0.5), 0);
        install(flow(1, 1, 1, 0, ServiceClass.HRT, 8_000, FlowEntry.PUBLISHER));
        install(flow(2, 1, 2, 0, ServiceClass.BE, 8_000, FlowEntry.PUBLISHER));
        install(flow(3, 1, 3, 0, ServiceClass.LRT, 8_000, UPSTREAM));
        install(flow(4, 1, 3, 1, ServiceClass.BE, 8_000, UPSTREAM));
        relay = new NoticeRelay(engine, (hop, variable, rate) -> advice.add(new Advised(hop, variable, rate)));
        for (long v = 1; v <= 3; v++) { // one sample each, so each flow's mean event size is known
            engine.forward(v, T0 - S, 0, new Object(), FRAME, T0 - S, 0);
        }
    }

    private void install(FlowEntry f) {
        assertTrue(engine.submit(FlowCommand.install(f)));
        engine.applyCommands(0);
    }

    /** The source times of the samples of one second at 60 Hz from {@code start} that the engine queued for a variable. */
    private List<Long> passing(long variable, long start) {
        List<Long> queued = new ArrayList<>();
        for (int k = 0; k < 60; k++) {
            long t = start + k * HZ60;
            if (engine.forward(variable, t, 0, new Object(), FRAME, t, 0) > 0) {
                queued.add(t);
            }
        }
        return queued;
    }

    private static List<Long> everyThird(long start) {
        List<Long> out = new ArrayList<>();
        for (int k = 0; k < 60; k += 3) {
            out.add(start + k * HZ60);
        }
        return out;
    }

    /** The assured rate (B/s on the wire, 128 B an event) whose hold is {@code hz}: held 1/8 below what it carries. */
    private static long holding(int hz) {
        return (long) Math.ceil(hz * 128.0 * NoticeRelay.DRAIN_DIVISOR / (NoticeRelay.DRAIN_DIVISOR - 1));
    }

    @Test
    void aVictimIsHeldAnEighthBelowWhatItsNewRateCarriesSoWhatItQueuedBeforeDrains() {
        relay.decided(0, new Decision(Decision.Kind.LENT, 2, ServiceClass.BE, 8_000, 2_560, 1)); // carries 20 Hz
        assertEquals(17, engine.heldRate(2), "20 Hz less an eighth, whole samples");
        assertEquals(List.of(new Advised(FlowEntry.PUBLISHER, 2, 17)), advice);
    }

    @Test
    void aVictimThatLendsIsHeldToTheSamplesItsNewAssuredRateCarriesOnItsGridAndItsPublisherIsAdvised() {
        relay.decided(0, new Decision(Decision.Kind.LENT, 2, ServiceClass.BE, 8_000, holding(20), 1));

        assertEquals(20, engine.heldRate(2));
        assertEquals(20, engine.statistics(0).flows().stream().filter(f -> f.flowId() == 2).findFirst().orElseThrow()
                .heldRateHz(), "shown in the flow's statistics, for the broker's flow reports");
        assertEquals(List.of(new Advised(FlowEntry.PUBLISHER, 2, 20)), advice);
        assertEquals(everyThird(T0), passing(2, T0), "the samples of the 20 Hz grid, in order, and no others");
        assertEquals(60 - 20, engine.counters().get(org.gridstat.core.forward.EngineCounter.HELD));

        relay.decided(0, new Decision(Decision.Kind.RETURNED, 2, ServiceClass.BE, holding(20), 8_000, -1));
        assertEquals(0, engine.heldRate(2));
        assertEquals(new Advised(FlowEntry.PUBLISHER, 2, 0), advice.get(1), "the lift goes upstream too");
        assertEquals(60, passing(2, T0 + S).size());
    }

    @Test
    void anHrtFlowIsNeverHeldNorAdvisedForWhateverItsDecisionsOrNotices() {
        relay.decided(0, new Decision(Decision.Kind.RELEASED, 1, ServiceClass.HRT, 16_000, 8_000, -1));
        assertEquals(Verdict.HRT, relay.noticed(0, 1, 5));
        assertEquals(0, engine.heldRate(1));
        assertEquals(List.of(), advice);
        assertEquals(60, passing(1, T0).size());
        assertEquals(1, relay.noticesRefused());
    }

    @Test
    void aNoticeForAVariableNotCarriedTowardItsSenderIsRefusedAndChangesNothing() {
        assertEquals(Verdict.NOT_CARRIED, relay.noticed(1, 2, 5), "variable 2 has no flow on link 1");
        assertEquals(Verdict.NOT_CARRIED, relay.noticed(0, 99, 5), "no flow of variable 99 at all");
        assertEquals(0, engine.heldRate(2));
        assertEquals(List.of(), advice);
        assertEquals(2, relay.noticesRefused());
    }

    @Test
    void aVariableIsAdvisedUpstreamOnlyOnceEveryFlowOfItIsHeldAndThenAtTheFastestHold() {
        assertEquals(Verdict.APPLIED, relay.noticed(0, 3, 10));
        assertEquals(10, engine.heldRate(3));
        assertEquals(0, engine.heldRate(4));
        assertEquals(List.of(), advice, "the flow on link 1 still needs every sample");

        assertEquals(Verdict.APPLIED, relay.noticed(1, 3, 15));
        assertEquals(List.of(new Advised(UPSTREAM, 3, 15)), advice);

        assertEquals(Verdict.APPLIED, relay.noticed(1, 3, 15), "a repeated notice");
        assertEquals(1, advice.size(), "changes nothing and sends nothing");

        relay.linkLost(1);
        assertEquals(0, engine.heldRate(4), "what the lost hop asked lifts");
        assertEquals(10, engine.heldRate(3), "what the other asked stays");
        assertEquals(new Advised(UPSTREAM, 3, 0), advice.get(1));
    }

    @Test
    void theSlowerOfWhatThisRouterLentAndWhatTheNextHopAskedHolds() {
        relay.decided(0, new Decision(Decision.Kind.LENT, 3, ServiceClass.LRT, 8_000, holding(30), 1));
        relay.noticed(0, 3, 12);
        assertEquals(12, engine.heldRate(3));
        relay.noticed(0, 3, 0);
        assertEquals(30, engine.heldRate(3));
    }

    @Test
    void aHoldOutlivesANewVersionOfItsFlowAndWhatANextHopAskedOutlivesItsRemovalButWhatThisRouterLentDoesNot() {
        relay.decided(0, new Decision(Decision.Kind.LENT, 2, ServiceClass.BE, 8_000, holding(20), 1));
        install(flow(2, 2, 2, 0, ServiceClass.BE, 9_000, FlowEntry.PUBLISHER));
        assertEquals(20, engine.heldRate(2));
        assertEquals(everyThird(T0), passing(2, T0));

        engine.submit(FlowCommand.remove(2, 3));
        engine.applyCommands(0);
        assertEquals(new Advised(FlowEntry.PUBLISHER, 2, 0), advice.get(advice.size() - 1), "the publisher is released");
        install(flow(2, 4, 2, 0, ServiceClass.BE, 9_000, FlowEntry.PUBLISHER));
        assertEquals(0, engine.heldRate(2), "installed again, the flow starts afresh under its link's policy");

        relay.noticed(0, 3, 10);
        engine.submit(FlowCommand.remove(3, 2));
        engine.applyCommands(0);
        install(flow(3, 3, 3, 0, ServiceClass.LRT, 8_000, UPSTREAM));
        assertEquals(10, engine.heldRate(3), "the next hop on its link still asks what it asked");
    }

    @Test
    void aHoldAtThePublishersRateOrAboveIsNoHold() {
        relay.decided(0, new Decision(Decision.Kind.LENT, 2, ServiceClass.BE, 8_000, 7_680, 1)); // 7,680 / 128 = 60 Hz
        assertEquals(0, engine.heldRate(2));
        assertEquals(List.of(), advice);
        relay.noticed(0, 2, 60);
        assertEquals(60, engine.heldRate(2), "a next hop may ask it: it holds nothing back");
        assertEquals(List.of(), advice, "and nothing is advised, the publisher sends no faster");
        assertEquals(60, passing(2, T0).size());
    }

    @Test
    void aReconnectingTransportGetsTheAdviceInForceForItsHop() {
        relay.noticed(0, 3, 10);
        relay.noticed(1, 3, 12);
        relay.noticed(0, 2, 20);
        List<Advised> replay = new ArrayList<>();
        relay.adviceFor(UPSTREAM, (hop, v, r) -> replay.add(new Advised(hop, v, r)));
        assertEquals(List.of(new Advised(UPSTREAM, 3, 12)), replay);
        replay.clear();
        relay.adviceFor(FlowEntry.PUBLISHER, (hop, v, r) -> replay.add(new Advised(hop, v, r)));
        assertEquals(List.of(new Advised(FlowEntry.PUBLISHER, 2, 20)), replay);
    }

    @Test
    void aFlowWhosePreviousHopsAreUnknownIsHeldAndTheAdviceThatCannotGoIsCounted() {
        install(new FlowEntry(1, 5, 1, FlowSpec.of(9, ServiceClass.BE, 8_000, 800, 16_000, 20, ""), new long[0], HZ60, 0));
        relay.noticed(1, 5, 10);
        assertEquals(10, engine.heldRate(9));
        assertEquals(List.of(), advice);
        assertEquals(1, relay.adviceWithoutUpstream());
    }
}
