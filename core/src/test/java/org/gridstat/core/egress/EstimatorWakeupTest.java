package org.gridstat.core.egress;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.gridstat.core.forward.EventReferences;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.core.time.ManualClock;
import org.junit.jupiter.api.Test;

/**
 * DataPathAgent adds the estimator period to the monotonic time without saturating
 * (DataPathAgent.java:69 and :115). A period the configuration accepts (estimator.period.ms is
 * converted with Saturating.millisToNanos, so Long.MAX_VALUE ms becomes Long.MAX_VALUE ns, and
 * EstimatorSettings takes any period >= 10 ms), or a monotonic clock near the top of its range,
 * wraps the next estimator tick negative: every cycle then runs the estimators and asks to be woken
 * in the past, i.e. at once, forever (LoopWakeups.wakeAt: wait <= 0 -> loop.execute(cycle)), a
 * busy loop on the data-path thread with nothing to do.
 */
class EstimatorWakeupTest {
    private static final EventReferences<String> REFS = new EventReferences<>() {
        @Override
        public void retain(String e) {
        }

        @Override
        public void release(String e) {
        }
    };

    /** Whether an idle agent, after one cycle, asks for its next cycle later than now. */
    private static boolean idleWakeIsLater(long monoStart, long periodNanos) {
        ManualClock clock = new ManualClock(monoStart);
        ForwardingEngine<String> engine = new ForwardingEngine<>(List.of(LinkSpec.withDefaultShares(125_000_000L)), 4,
                REFS, new EstimatorSettings(periodNanos, 0.5), clock.nanoTime());
        AgentHarness.ExactWakeups wakeups = new AgentHarness.ExactWakeups();
        Transmitter<String> none = new Transmitter<>() {
            @Override
            public boolean writable() {
                return true;
            }

            @Override
            public void write(String event) {
            }

            @Override
            public void flush() {
            }
        };
        DataPathAgent<String> agent = new DataPathAgent<>(engine,
                List.of(new EgressPump<>(engine, 0, none, REFS, s -> 260, null)), wakeups, clock, clock, 64, periodNanos);
        clock.advance(1_000);
        agent.beginCycle();
        agent.doWork();
        return wakeups.requested > clock.nanoTime();
    }

    @Test
    void aHugeEstimatorPeriodDoesNotMakeAnIdleAgentAskToRunAgainAtOnce() {
        // estimator.period.ms = Long.MAX_VALUE, as Saturating.millisToNanos passes it on
        assertTrue(idleWakeIsLater(AgentHarness.T0, Long.MAX_VALUE), "an idle agent asked to be woken in the past");
    }

    @Test
    void aMonotonicClockNearItsTopDoesNotMakeAnIdleAgentSpin() {
        assertTrue(idleWakeIsLater(Long.MAX_VALUE - 500_000_000L, 1_000_000_000L),
                "an idle agent asked to be woken in the past");
    }
}
