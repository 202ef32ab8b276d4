package org.gridstat.broker.adapt;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.adapt.GlobalAdaptation.Outcome;
import org.gridstat.broker.install.FlowInstaller;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.time.ManualClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Global adaptation on a manual clock and scheduler, over an in-process broker of two routers. */
class GlobalAdaptationTest {
    private static final long MS = 1_000_000L;

    private record Timer(long at, Runnable task) {
    }

    private final ManualClock clock = new ManualClock(0);
    private final List<Timer> timers = new ArrayList<>();
    private final List<Outcome> outcomes = new ArrayList<>();
    private final Set<String> shortFlows = new HashSet<>();
    private final List<ControlMessage.InstallFlow> installed = new ArrayList<>();
    /** Whether sending to the routers fails (a lost control session, say). */
    private boolean sendsFail;
    private QosBroker broker;
    private GlobalAdaptation adaptation;
    private long hrtFlow;
    private long beFlow;

    @BeforeEach
    void setUp() {
        Topology t = Topology.builder().router("r1", 1_000_000, MS, "").router("r2", 1_000_000, MS, "")
                .between("r1", "r2", 100_000, MS, Topology.Builder.defaultShares()).build();
        broker = QosBroker.inProcess(t, new FlowInstaller() {
            @Override
            public void install(String router, ControlMessage.InstallFlow flow) {
                if (sendsFail) {
                    throw new IllegalStateException("router " + router + " unreachable");
                }
                installed.add(flow);
            }

            @Override
            public void remove(String router, long flowId, long version) {
            }
        });
        adaptation = broker.adaptInProcess(Duration.ofMillis(200), (delay, task) -> timers.add(new Timer(clock.nanoTime() + delay, task)),
                clock, (router, flow) -> shortFlows.contains(router + "/" + flow), outcomes::add);
        broker.declare("pmu", "r1", 260, 50 * MS, ServiceClass.HRT, "").join();
        broker.declare("app", "r1", 260, 50 * MS, ServiceClass.BE, "").join();
        broker.subscribe("pmu", "r2", "cc", QosSpec.builder().rateHz(20).latencyBound(Duration.ofMillis(100))
                .serviceClass(ServiceClass.HRT).build()).join();
        broker.subscribe("app", "r2", "cc", QosSpec.builder().rateHz(20).latencyBound(Duration.ofSeconds(1))
                .serviceClass(ServiceClass.BE).build()).join();
        for (ControlMessage.InstallFlow f : broker.flows().get("r1")) {
            if (f.spec().serviceClass() == ServiceClass.HRT) {
                hrtFlow = f.spec().flowId();
            } else {
                beFlow = f.spec().flowId();
            }
        }
    }

    private void advance(long nanos) {
        clock.advance(nanos);
        for (Timer t : List.copyOf(timers)) {
            if (t.at() <= clock.nanoTime()) {
                timers.remove(t);
                t.task().run();
            }
        }
    }

    @Test
    void aFlowStillShortAfterTheDelayIsGrownToTheRateItsNeedCarriesOnceAndItsFlowsReinstalled() {
        shortFlows.add("r1/" + hrtFlow);
        adaptation.unmet("r1", hrtFlow, 60 * 288);
        adaptation.unmet("r1", hrtFlow, 60 * 288); // the same alarm again: one re-plan
        advance(199 * MS);
        assertEquals(List.of(), outcomes, "not before the reaction delay");
        int before = installed.size();
        advance(MS);
        assertEquals(1, outcomes.size(), "" + outcomes);
        Outcome o = outcomes.get(0);
        assertEquals(Outcome.Kind.GROWN, o.kind(), "" + o);
        assertEquals(200 * MS, o.decidedAtNanos() - o.raisedAtNanos());
        assertEquals(60.0, broker.subscription(o.subscriptionId()).request().qos().rateHz(), 0.01);
        assertTrue(installed.size() > before, "its flows installed again, at the new reservation");
        assertEquals(60 * 288, installed.get(installed.size() - 1).spec().assuredRate());
    }

    @Test
    void aGrowthStoredButNotSentToTheRoutersIsReportedAsStoredNotRefused() {
        shortFlows.add("r1/" + hrtFlow);
        adaptation.unmet("r1", hrtFlow, 60 * 288);
        sendsFail = true;
        advance(200 * MS);
        Outcome o = outcomes.get(0);
        assertEquals(Outcome.Kind.STORED, o.kind(), "" + o);
        assertTrue(o.detail().contains("stored, but sending") && o.detail().contains("router r1 unreachable"), o.detail());
        assertEquals(60.0, broker.subscription(o.subscriptionId()).request().qos().rateHz(), 0.01,
                "the new reservation stands: the routers get it when they resynchronise");
    }

    @Test
    void aFlowNoLongerShortWhenTheDelayHasPassedIsLeftAlone() {
        adaptation.unmet("r1", hrtFlow, 60 * 288);
        advance(200 * MS);
        assertEquals(Outcome.Kind.RESOLVED, outcomes.get(0).kind());
        assertEquals(20.0, broker.subscriptions().get(0).request().qos().rateHz(), 0.01);
    }

    @Test
    void aShortFlowWithoutAnHrtSubscriptionOrBeyondWhatAnyPathCarriesIsRefusedAndSaysWhy() {
        shortFlows.add("r1/" + beFlow);
        adaptation.unmet("r1", beFlow, 60 * 288);
        shortFlows.add("r1/" + hrtFlow);
        adaptation.unmet("r1", hrtFlow, 100_000); // more than the link's HRT share
        advance(200 * MS);
        assertEquals(Outcome.Kind.REFUSED, outcomes.get(0).kind());
        assertTrue(outcomes.get(0).detail().contains("no HRT subscription"), outcomes.get(0).detail());
        assertEquals(Outcome.Kind.REFUSED, outcomes.get(1).kind());
        assertTrue(outcomes.get(1).detail().contains("not admitted"), outcomes.get(1).detail());
        assertEquals(20.0, broker.subscription(outcomes.get(1).subscriptionId()).request().qos().rateHz(), 0.01,
                "it keeps its reservation");
        assertEquals(2, adaptation.recent().size());
    }
}
