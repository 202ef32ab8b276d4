package org.gridstat.node.rpc;

import static org.junit.jupiter.api.Assertions.*;

import org.gridstat.rpc.client.CallOutcome;
import org.gridstat.rpc.transport.Redundancy;
import org.gridstat.sim.reproduce.RatatoskrNetwork;
import org.junit.jupiter.api.Test;

/**
 * The Ratatoskr evaluation on 13 real status routers on loopback: early success as the analysis
 * has it, every call answered, the actuator run once per call executed. No speed is asserted. A
 * loaded machine is late, and lateness looks like omission to early success: a frame the routers
 * drop as expired, or a first try answered after the second was sent, keeps a call from being
 * early. The run counts both, so the lower tolerance widens by the calls they may have spoiled, at
 * most one each; the upper does not.
 */
class RealRatatoskrRunTest {
    @Test
    void earlySuccessFollowsTheAnalysisAndEveryCallRunsTheActuatorAtMostOnce() throws Exception {
        int calls = 600;
        // f = 4 %, two temporal copies 2 ms apart over one path, retried until answered
        RealRatatoskrRun.Result r = RealRatatoskrRun.run(0.04, 0, 0,
                new Redundancy(1, 2, 2 * RatatoskrNetwork.MS, 20), 50, calls, 7, System.out);
        assertEquals(calls, r.statistics().calls());
        assertEquals(calls, r.statistics().outcome(CallOutcome.SUCCESS), "every call answered: " + r.statistics().outcomes());
        assertEquals(r.executedCalls(), r.executions(), "the actuator ran once per call executed, retries and copies"
                + " notwithstanding");
        double tolerance = 4.5 * r.sigma();
        double early = r.statistics().earlySuccessRate();
        String figures = "early success " + early + " against the analysis " + r.analysis() + " (4.5 sigma: " + tolerance
                + "; the machine's lateness may have spoiled " + r.lateShare() + " of the calls)";
        assertTrue(early <= r.analysis() + tolerance, figures);
        assertTrue(early >= r.analysis() - tolerance - r.lateShare(), figures);
        assertTrue(r.omittedFrames() > 0, "the links lost frames as asked");
    }
}
