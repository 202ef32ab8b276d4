package org.gridstat.core.congestion;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.FlowSpec;
import org.junit.jupiter.api.Test;

/**
 * Algorithm 2 on a link of flows whose demands the test sets: who lends to whom, in what order,
 * never below a minimum rate, and how bandwidth comes back.
 */
class BandwidthReassignmentTest {
    private final BandwidthReassignment policy = new BandwidthReassignment();
    private final List<Decision> decisions = new ArrayList<>();

    private static FlowSpec flow(long id, ServiceClass c, long assured, long minimum, long ceiling, String group) {
        return FlowSpec.of(id, c, assured, minimum, ceiling, 20, group);
    }

    /** An HRT flow 1 (reserved 6,400 B/s, minimum 5,200, ceiling {@code hrtCeiling}) and a best-effort flow 2 (6,400, 600, 12,800), both of substation A. */
    private static LinkFlowsStub hrtAndBestEffort(long hrtCeiling) {
        return new LinkFlowsStub(2)
                .flow(0, flow(1, ServiceClass.HRT, 6_400, 5_200, hrtCeiling, "A"))
                .flow(1, flow(2, ServiceClass.BE, 6_400, 600, 12_800, "A"));
    }

    private void run(LinkFlowsStub link) {
        decisions.clear();
        policy.reassign(link, 0, decisions::add);
    }

    @Test
    void bestEffortLendsBeforeLrtAndTheCongestedFlowsOwnSubstationFirst() {
        LinkFlowsStub link = new LinkFlowsStub(8)
                .flow(0, flow(1, ServiceClass.HRT, 6_400, 5_200, 40_000, "A"))
                .flow(1, flow(2, ServiceClass.LRT, 6_400, 2_600, 12_800, "A"))
                .flow(2, flow(3, ServiceClass.BE, 6_400, 600, 12_800, "B"))
                .flow(3, flow(4, ServiceClass.BE, 6_400, 600, 12_800, "A"));
        link.demand[0] = 6_400 + 5_800 + 5_800 + 3_000; // needs both BE flows' 5,800 B/s above their minimum and 3,000 of LRT's
        run(link);
        assertEquals(21_000, link.assured[0], "the HRT flow is granted its need");
        assertEquals(600, link.assured[3], "A's best-effort flow, in the HRT flow's substation, lent first, down to its minimum");
        assertEquals(600, link.assured[2], "then B's best effort, down to its minimum");
        assertEquals(6_400 - 3_000, link.assured[1], "LRT lent only the rest");
        assertEquals(List.of(
                new Decision(Decision.Kind.GRANTED, 1, ServiceClass.HRT, 6_400, 21_000, -1),
                new Decision(Decision.Kind.LENT, 2, ServiceClass.LRT, 6_400, 3_400, 1),
                new Decision(Decision.Kind.LENT, 3, ServiceClass.BE, 6_400, 600, 1),
                new Decision(Decision.Kind.LENT, 4, ServiceClass.BE, 6_400, 600, 1)), decisions);
    }

    @Test
    void theCorrelatedVictimIsTakenFirstEvenWithAHigherFlowId() {
        LinkFlowsStub link = new LinkFlowsStub(4)
                .flow(0, flow(1, ServiceClass.HRT, 6_400, 5_200, 20_000, "A"))
                .flow(1, flow(2, ServiceClass.BE, 6_400, 600, 12_800, "B"))
                .flow(2, flow(9, ServiceClass.BE, 6_400, 600, 12_800, "A"));
        link.demand[0] = 6_400 + 1_000;
        run(link);
        assertEquals(6_400, link.assured[1], "the uncorrelated flow keeps its reservation");
        assertEquals(5_400, link.assured[2], "the flow of the same substation lends");
    }

    @Test
    void noVictimGoesBelowItsMinimumAndTheShortfallIsAnAlarmReportedOnce() {
        LinkFlowsStub link = new LinkFlowsStub(4)
                .flow(0, flow(1, ServiceClass.HRT, 6_400, 5_200, 40_000, "A"))
                .flow(1, flow(2, ServiceClass.LRT, 6_400, 2_600, 12_800, "A"))
                .flow(2, flow(3, ServiceClass.BE, 6_400, 600, 12_800, "A"));
        link.demand[0] = 30_000; // needs 23,600; the victims can lend 3,800 + 5,800
        run(link);
        assertEquals(2_600, link.assured[1]);
        assertEquals(600, link.assured[2]);
        assertEquals(6_400 + 9_600, link.assured[0]);
        Decision alarm = decisions.stream().filter(d -> d.kind() == Decision.Kind.UNMET).findFirst().orElseThrow();
        assertEquals(1, alarm.flowId());
        assertEquals(23_600 - 9_600, alarm.shortfall());
        assertEquals(23_600 - 9_600, link.shortfall[0], "published with the flow's statistics");
        run(link);
        assertEquals(List.of(), decisions, "nothing changed: no decision, no second alarm");
        link.demand[0] = 6_400 + 9_000;
        run(link);
        assertTrue(decisions.contains(new Decision(Decision.Kind.MET, 1, ServiceClass.HRT, 15_400, 15_400, -1)), "" + decisions);
        assertEquals(0, link.shortfall[0]);
    }

    @Test
    void theLinksUnreservedCapacityIsGrantedBeforeAnyVictimLends() {
        LinkFlowsStub link = hrtAndBestEffort(40_000);
        link.capacity = 6_400 + 6_400 + 3_000;
        link.demand[0] = 6_400 + 2_000;
        run(link);
        assertEquals(8_400, link.assured[0]);
        assertEquals(6_400, link.assured[1], "the spare covered it: nobody lends");
        link.demand[0] = 6_400 + 5_000;
        run(link);
        assertEquals(11_400, link.assured[0]);
        long headroom = link.capacity / BandwidthReassignment.HEADROOM_DIVISOR;
        assertEquals(6_400 - 2_000 - headroom, link.assured[1],
                "the victim lends what the spare did not cover, the spare's headroom kept back while it can");
        link.demand[0] = 6_400 + 3_000 + 5_800 + 1_000;
        run(link);
        Decision alarm = decisions.stream().filter(d -> d.kind() == Decision.Kind.UNMET).findFirst().orElseThrow();
        assertEquals(1_000, alarm.shortfall(), "short only of what neither the link nor a victim has");
    }

    @Test
    void aRoundedNeedNeverPassesTheCeiling() {
        LinkFlowsStub link = hrtAndBestEffort(9_050);
        link.demand[0] = 50_000;
        run(link);
        assertEquals(9_050, link.assured[0], "not the 9,100 of whole quanta");
    }

    @Test
    void aShortFlowThatLeavesOrStopsBeingHrtClosesItsAlarm() {
        LinkFlowsStub link = hrtAndBestEffort(40_000);
        link.demand[0] = 30_000;
        run(link);
        assertTrue(decisions.stream().anyMatch(d -> d.kind() == Decision.Kind.UNMET));
        link.flow(0, flow(1, ServiceClass.LRT, 6_400, 3_200, 40_000, "A")); // re-classed
        run(link);
        assertTrue(decisions.contains(new Decision(Decision.Kind.MET, 1, ServiceClass.HRT, 0, 0, -1)), "" + decisions);
        link.flow(0, flow(1, ServiceClass.HRT, 6_400, 5_200, 40_000, "A"));
        link.demand[0] = 30_000;
        run(link);
        assertTrue(decisions.stream().anyMatch(d -> d.kind() == Decision.Kind.UNMET), "short again: a new alarm " + decisions);
        link.remove(0);
        run(link);
        assertTrue(decisions.contains(new Decision(Decision.Kind.MET, 1, ServiceClass.HRT, 0, 0, -1)), "gone: " + decisions);
    }

    @Test
    void theNeedStopsAtTheCeiling() {
        LinkFlowsStub link = hrtAndBestEffort(9_000);
        link.demand[0] = 50_000;
        run(link);
        assertEquals(9_000, link.assured[0], "beyond its ceiling the excess is the flow's own");
        assertEquals(6_400 - 2_600, link.assured[1]);
    }

    @Test
    void bandwidthReturnsToTheVictimsWhenDemandFalls() {
        LinkFlowsStub link = hrtAndBestEffort(20_000);
        link.demand[0] = 9_600;
        run(link);
        assertEquals(3_200, link.assured[1]);
        link.demand[0] = 6_000; // stable again
        run(link);
        assertEquals(6_400, link.assured[0]);
        assertEquals(6_400, link.assured[1]);
        assertEquals(List.of(new Decision(Decision.Kind.RELEASED, 1, ServiceClass.HRT, 9_600, 6_400, -1),
                new Decision(Decision.Kind.RETURNED, 2, ServiceClass.BE, 3_200, 6_400, -1)), decisions);
    }

    @Test
    void aWobblingEstimateMovesNoRateButARealFallDoes() {
        LinkFlowsStub link = hrtAndBestEffort(20_000);
        link.demand[0] = 9_600; // quantum: 100 B/s
        run(link);
        assertEquals(9_600, link.assured[0]);
        link.demand[0] = 9_450; // less than two quanta below: held
        run(link);
        assertEquals(List.of(), decisions);
        link.demand[0] = 9_620; // a little more: up at once, to the next quantum
        run(link);
        assertEquals(9_700, link.assured[0]);
        link.demand[0] = 9_300; // four quanta below
        run(link);
        assertEquals(9_300, link.assured[0]);
        assertEquals(6_400 - 2_900, link.assured[1]);
    }

    @Test
    void aNeedMovesInStepsNoFinerThanTheEstimateCanTell() {
        LinkFlowsStub link = hrtAndBestEffort(40_000);
        link.resolution = 2_880; // one 288-byte event per 100 ms period
        link.demand[0] = 6_400 + 3_000;
        run(link);
        assertEquals(6_400 + 2_880, link.assured[0], "120 B/s past one step is within the estimate's noise");
        link.demand[0] = 6_400 + 3_200;
        run(link);
        assertEquals(6_400 + 5_760, link.assured[0], "320 B/s past it is not: two whole steps of one event a period");
        link.demand[0] = 6_400 + 300; // one event fewer than the need's first step
        run(link);
        assertEquals(6_400 + 5_760, link.assured[0], "a fall within two steps is noise: held");
        link.demand[0] = 6_400;
        run(link);
        assertEquals(6_400, link.assured[0], "no need at all: released");
    }

    @Test
    void aSurgeThatEndedGivesEverythingBackAfterTenPeriodsAskingForLessThoughTheAverageOnlyNearsTheReservation() {
        LinkFlowsStub link = hrtAndBestEffort(40_000);
        link.resolution = 2_880;
        link.demand[0] = 6_400 + 5_000; // granted two steps
        run(link);
        assertEquals(6_400 + 5_760, link.assured[0]);
        decisions.clear();
        for (int period = 1; period < BandwidthReassignment.SETTLE_PERIODS; period++) {
            link.demand[0] = 6_400 + 2_000.0 / (1 << period); // back at the reservation, the average fading
            run(link);
        }
        assertEquals(List.of(), decisions, "nine periods asking for less: held");
        link.demand[0] = 6_400 + 1;
        run(link);
        assertEquals(6_400 + 2_880, link.assured[0], "the tenth: down to the most those periods asked (one step)");
        for (int period = 0; period < BandwidthReassignment.SETTLE_PERIODS; period++) {
            link.demand[0] = 6_400 + 0.5;
            run(link);
        }
        assertEquals(6_400, link.assured[0], "and after ten more, all of it");
        assertEquals(6_400, link.assured[1], "the victim has its reservation back");
    }

    @Test
    void aFlowPublishingAtItsReservationKeepsASmallGrantUntilItsDemandFallsTwoStepsBelow() {
        LinkFlowsStub link = hrtAndBestEffort(40_000);
        link.resolution = 2_880;
        int moves = 0;
        for (int period = 0; period < 10; period++) { // a sample more in one period, as many as reserved in the next
            link.demand[0] = period % 2 == 0 ? 6_400 + 2_880 : 6_400;
            run(link);
            moves += decisions.size();
        }
        assertEquals(2, moves, "granted once (the flow and its victim), then held: " + decisions);
        assertEquals(6_400 + 2_880, link.assured[0]);
        link.demand[0] = 6_400 - 2_880 - 1; // two steps below the grant
        run(link);
        assertEquals(6_400, link.assured[0], "released");
        assertEquals(6_400, link.assured[1], "and returned");
    }

    @Test
    void onlyHrtFlowsAreCongestedAndLrtNeverTakesFromBestEffort() {
        LinkFlowsStub link = new LinkFlowsStub(2)
                .flow(0, flow(1, ServiceClass.LRT, 6_400, 2_600, 20_000, "A"))
                .flow(1, flow(2, ServiceClass.BE, 6_400, 600, 12_800, "A"));
        link.demand[0] = 15_000;
        run(link);
        assertEquals(List.of(), decisions);
        assertEquals(6_400, link.assured[1]);
    }

    @Test
    void twoCongestedHrtFlowsAreServedInFlowIdOrderFromOnePool() {
        LinkFlowsStub link = new LinkFlowsStub(4)
                .flow(0, flow(7, ServiceClass.HRT, 6_400, 5_200, 20_000, "B"))
                .flow(1, flow(3, ServiceClass.HRT, 6_400, 5_200, 20_000, "A"))
                .flow(2, flow(4, ServiceClass.BE, 6_400, 600, 12_800, "A"));
        link.demand[0] = 6_400 + 4_000;
        link.demand[1] = 6_400 + 4_000;
        run(link);
        assertEquals(10_400, link.assured[1], "flow 3 first");
        assertEquals(6_400 + 1_800, link.assured[0], "flow 7 gets what is left above the victim's minimum");
        assertEquals(600, link.assured[2]);
        assertTrue(decisions.contains(new Decision(Decision.Kind.UNMET, 7, ServiceClass.HRT, 8_200, 10_400, -1)), "" + decisions);
    }

    @Test
    void aFlowReplacedInItsSlotStartsWithoutTheOldOnesHistory() {
        LinkFlowsStub link = hrtAndBestEffort(20_000);
        link.demand[0] = 9_600;
        run(link);
        link.flow(0, flow(5, ServiceClass.HRT, 6_400, 5_200, 20_000, "A"));
        link.demand[0] = 9_500; // would be held at 9,600 had the slot kept flow 1's need
        run(link);
        assertEquals(9_500, link.assured[0]);
    }

    @Test
    void stateFollowsTheDemandAgainstTheReservation() {
        FlowSpec f = flow(1, ServiceClass.HRT, 6_400, 5_200, 20_000, "A");
        assertEquals(FlowState.MINIMUM, FlowState.of(f, 5_200));
        assertEquals(FlowState.STABLE, FlowState.of(f, 5_201));
        assertEquals(FlowState.STABLE, FlowState.of(f, 6_400));
        assertEquals(FlowState.CONGESTED, FlowState.of(f, 6_401));
    }
}
