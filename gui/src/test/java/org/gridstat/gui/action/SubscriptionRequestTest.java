package org.gridstat.gui.action;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.gridstat.gui.model.Subscription;
import org.junit.jupiter.api.Test;

/** The admit and modify forms' checks: the broker's limits, every problem listed, only changes sent. */
class SubscriptionRequestTest {
    private static final List<String> ROUTERS = List.of("r1", "r2", "r3", "r4");

    @Test
    void aGoodFormMakesTheRequestAndSaysWhatAdmittingChanges() {
        SubscriptionRequest.Checked c = SubscriptionRequest.check(" utilityA/sub1/pmu1/freq ", "r4", "cc", "30", "50",
                "2", "hrt", "", ROUTERS);
        assertTrue(c.ok(), c.problems().toString());
        assertEquals(new SubscriptionRequest("utilityA/sub1/pmu1/freq", "r4", "cc", 30, 50, 2, "HRT", ""), c.request());
        assertTrue(c.request().describe().startsWith("Admit a subscription to utilityA/sub1/pmu1/freq, delivered at r4 "
                + "over its link cc: 30 Hz, latency bound 50 ms, 2 disjoint paths, class HRT."), c.request().describe());
    }

    @Test
    void everyProblemOfABadFormIsListed() {
        SubscriptionRequest.Checked c = SubscriptionRequest.check("a//b", "r9", "", "2000", "0.5", "5", "GOLD", "bad group!",
                ROUTERS);
        assertFalse(c.ok());
        assertNull(c.request());
        assertEquals(8, c.problems().size(), c.problems().toString());
        assertTrue(c.problems().contains("router: 'r9' is not a router of the topology"), c.problems().toString());
        assertTrue(c.problems().contains("paths: 1 to 4 disjoint paths"), c.problems().toString());
    }

    @Test
    void aChangeSendsOnlyWhatDiffersAndClearingTheGroupIsAChange() {
        Subscription s = new Subscription(7, "v/x", "r4", "cc", 10, 100, 1, "LRT", "west", List.of(), "installed", List.of());
        QosChange.Checked same = QosChange.check(s, "10", "100", "LRT", "west");
        assertEquals(List.of("nothing to change: every field holds the subscription's current value"), same.problems());
        QosChange.Checked rate = QosChange.check(s, "20", "100", "LRT", "west");
        assertEquals(new QosChange(20.0, null, null, null), rate.change());
        assertTrue(rate.change().describe(s).contains("rate 10 Hz → 20 Hz"), rate.change().describe(s));
        QosChange.Checked group = QosChange.check(s, "10", "100", "LRT", "");
        assertEquals(new QosChange(null, null, null, ""), group.change());
        assertTrue(group.change().describe(s).contains("correlation group west → (none)"));
    }
}
