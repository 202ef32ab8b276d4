package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.congestion.Decision;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.time.ManualClock;
import org.gridstat.statusrouter.api.CongestionDecision;
import org.junit.jupiter.api.Test;

class DecisionLogTest {
    private final ManualClock clock = new ManualClock(1_000L);
    private final List<CongestionDecision> alarms = new ArrayList<>();

    private static Decision lent(long flowId, long to) {
        return new Decision(Decision.Kind.LENT, flowId, ServiceClass.BE, 6_000, to, 1);
    }

    @Test
    void keepsTheMostRecentDecisionsOldestFirstWithTheirLinkAndTime() {
        DecisionLog log = new DecisionLog(List.of("a", "b"), clock, alarms::add, 4);
        assertEquals(List.of(), log.snapshot());
        for (int i = 0; i < 6; i++) {
            clock.advance(10);
            log.decided(i % 2, lent(10 + i, 5_000 - i));
        }
        List<CongestionDecision> kept = log.snapshot();
        assertEquals(4, kept.size(), "the ring's four: " + kept);
        for (int k = 0; k < 4; k++) {
            CongestionDecision d = kept.get(k);
            int i = k + 2;
            assertEquals(i, d.sequence());
            assertEquals(10 + i, d.decision().flowId());
            assertEquals(i % 2 == 0 ? "a" : "b", d.link());
            assertEquals(1_000 + 10L * (i + 1), d.epochNanos());
        }
        assertEquals(6, log.recorded());
        assertEquals(List.of(), alarms, "nothing unmet");
    }

    @Test
    void eachUnmetNeedIsRaisedOnceAndKeptLikeAnyOtherDecision() {
        DecisionLog log = new DecisionLog(List.of("a"), clock, alarms::add);
        Decision unmet = new Decision(Decision.Kind.UNMET, 1, ServiceClass.HRT, 5_000, 9_000, -1);
        log.decided(0, lent(2, 1_000));
        log.decided(0, unmet);
        log.decided(0, new Decision(Decision.Kind.MET, 1, ServiceClass.HRT, 9_000, 9_000, -1));
        assertEquals(List.of(new CongestionDecision(1, 1_000L, "a", unmet)), alarms);
        assertEquals(3, log.snapshot().size());
        log.snapshot();
        assertEquals(1, alarms.size(), "reading the log raises nothing again");
    }

    @Test
    void aLinksUnmetNeedsReachTheAlarmSinkAtMostOnceASecondAndTheRestAreCounted() {
        DecisionLog log = new DecisionLog(List.of("a", "b"), clock, alarms::add);
        for (int i = 0; i < 10; i++) { // a need that changes every 100 ms
            log.decided(0, new Decision(Decision.Kind.UNMET, 1, ServiceClass.HRT, 5_000, 9_000 + i * 100, -1));
            clock.advance(100_000_000L);
        }
        log.decided(1, new Decision(Decision.Kind.UNMET, 2, ServiceClass.HRT, 5_000, 9_000, -1));
        log.decided(0, new Decision(Decision.Kind.UNMET, 1, ServiceClass.HRT, 5_000, 11_000, -1));
        assertEquals(List.of(0L, 10L, 11L), alarms.stream().map(CongestionDecision::sequence).toList(),
                "link a's first, link b's own, link a's a second after its first");
        assertEquals(9, log.alarmsHeldBack());
        assertEquals(12, log.snapshot().size(), "every one is kept");
    }

    @Test
    void theCapacityIsAPowerOfTwo() {
        assertThrows(IllegalArgumentException.class, () -> new DecisionLog(List.of("a"), clock, alarms::add, 100));
    }
}
