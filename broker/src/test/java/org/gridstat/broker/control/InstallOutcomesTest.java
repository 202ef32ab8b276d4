package org.gridstat.broker.control;

import static org.junit.jupiter.api.Assertions.*;

import org.gridstat.core.control.ControlMessage.InstallFlow;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.FlowSpec;
import org.junit.jupiter.api.Test;

/** What InstallOutcomes keeps once a flow is removed. */
class InstallOutcomesTest {
    private static InstallFlow flow(long id, long version) {
        return new InstallFlow(version, 42, "cc", FlowSpec.of(id, ServiceClass.HRT, 15_600, 31_200), new long[] {16_666_667L},
                16_666_667L, 10_000_000L, 0);
    }

    @Test
    void anAnswerArrivingAfterTheFlowWasRemovedLeavesNothingBehind() {
        InstallOutcomes o = new InstallOutcomes(() -> 1_000L);
        o.sent("r1", 1, flow(7, 1));
        o.sent("r1", 2, flow(8, 1));
        // the subscription goes before the router's answers arrive (a quick subscribe/unsubscribe)
        o.removed("r1", 7);
        o.removed("r1", 8);
        assertNull(o.refused("r1", 1, "no out-link 'cc'"), "a refusal of a flow removed is of no flow the broker holds");
        o.acknowledged("r1", 2);
        assertNull(o.refusal("r1", 7), "a refusal of a removed flow is kept forever (it survives new sessions too)");
        assertFalse(o.installed("r1", 8, 1), "a removed flow is shown installed");
    }
}
