package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.core.forward.EventReferences;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.statusrouter.spi.KernelFlow;
import org.gridstat.statusrouter.spi.KernelFlowStatistics;
import org.gridstat.statusrouter.spi.KernelLink;
import org.gridstat.statusrouter.spi.KernelShaping;
import org.junit.jupiter.api.Test;

/** What the kernel is told of a link's flows, and what its counters say of their demand. */
class KernelLinksTest {
    private static final long S = 1_000_000_000L;
    private static final long PERIOD = 100_000_000L;
    private static final long MS = 1_000_000L;
    private static final EventReferences<String> REFS = new EventReferences<>() {
        @Override
        public void retain(String e) {
        }

        @Override
        public void release(String e) {
        }
    };

    @Test
    void theKernelGetsTheAssuredRateCongestionControlPutInForceNotOnlyTheReservation() {
        ForwardingEngine<String> engine = new ForwardingEngine<>(
                List.of(LinkSpec.withDefaultShares(10_000).shapedInKernel(), LinkSpec.withDefaultShares(10_000)), 8, REFS,
                new EstimatorSettings(PERIOD, 0.5), 0);
        // a policy that, once asked to, lends flow 1 what it needs: its assured rate in force becomes 7,000
        boolean[] lend = {false};
        engine.useCongestionControl(() -> (flows, now, decisions) -> {
            for (int s = 0; lend[0] && s < flows.slotCount(); s++) {
                FlowSpec f = flows.reserved(s);
                if (f != null && f.flowId() == 1) {
                    flows.assure(s, 7_000, now);
                }
            }
        }, (link, d) -> { });
        engine.submit(FlowCommand.install(new FlowEntry(1, 42, 0, FlowSpec.of(1, ServiceClass.HRT, 3_000, 0, 8_000, 20, ""),
                new long[0], 0, 0)));
        engine.submit(FlowCommand.install(new FlowEntry(1, 43, 0, FlowSpec.of(2, ServiceClass.BE, 2_000, 0, 5_000, 20, ""),
                new long[0], 0, 0)));
        engine.submit(FlowCommand.install(new FlowEntry(1, 44, 1, FlowSpec.of(3, ServiceClass.LRT, 2_000, 0, 5_000, 20, ""),
                new long[0], 0, 0)));
        engine.applyCommands(0);
        assertEquals(List.of(new KernelFlow(1, 42, ServiceClass.HRT, 3_000, 8_000, 0, 0),
                new KernelFlow(2, 43, ServiceClass.BE, 2_000, 5_000, 0, 0)), KernelLinks.flowsOf(engine, 0),
                "the reservations, in flow order, the other link's flow left out");
        lend[0] = true;
        engine.tick(PERIOD); // the period ends: the policy runs
        assertEquals(List.of(new KernelFlow(1, 42, ServiceClass.HRT, 7_000, 8_000, 0, 0),
                new KernelFlow(2, 43, ServiceClass.BE, 2_000, 5_000, 0, 0)), KernelLinks.flowsOf(engine, 0));
        assertEquals(List.of(new KernelFlow(3, 44, ServiceClass.LRT, 2_000, 5_000, 0, 0)), KernelLinks.flowsOf(engine, 1));
    }

    @Test
    void theKernelGetsEachFlowsMinimumRateHoldAndSlack() {
        ForwardingEngine<String> engine = new ForwardingEngine<>(List.of(LinkSpec.withDefaultShares(100_000).shapedInKernel()), 8,
                REFS, new EstimatorSettings(PERIOD, 0.5), 0);
        engine.submit(FlowCommand.install(new FlowEntry(1, 42, 0, FlowSpec.of(1, ServiceClass.HRT, 17_280, 17_280, 69_120, 20, ""),
                new long[0], 0, 0)));
        engine.submit(FlowCommand.install(new FlowEntry(1, 43, 0, FlowSpec.of(2, ServiceClass.BE, 5_760, 662, 11_520, 20, ""),
                new long[0], 0, 0)));
        engine.applyCommands(0);
        assertEquals(List.of(new KernelFlow(1, 42, ServiceClass.HRT, 17_280, 69_120, 0, 0, 17_280, 0, KernelFlow.NO_DEADLINE),
                new KernelFlow(2, 43, ServiceClass.BE, 5_760, 11_520, 0, 0, 662, 0, KernelFlow.NO_DEADLINE)),
                KernelLinks.flowsOf(engine, 0), "nothing arrived: no size, no slack, no hold yet");
        long epoch = 1_767_225_600_000_000_000L;
        long mono = 10 * MS;
        // an HRT sample that has 45.9 ms left before its end-to-end deadline, and a best-effort one with none
        assertEquals(1, engine.forward(42, epoch - MS, epoch + 45_900_000L, "hrt", 260, epoch, mono));
        assertEquals(1, engine.forward(43, epoch - MS, 0, "be", 260, epoch, mono));
        assertTrue(engine.hold(2, 2), "best effort held to 2 samples a second");
        engine.tick(PERIOD);
        assertEquals(List.of(new KernelFlow(1, 42, ServiceClass.HRT, 17_280, 69_120, 0, 288, 17_280, 0, 45),
                new KernelFlow(2, 43, ServiceClass.BE, 5_760, 11_520, 0, 288, 662, 2 * 288, KernelFlow.NO_DEADLINE)),
                KernelLinks.flowsOf(engine, 0), "45 whole ms of slack; the hold's 2 Hz at 288 bytes on the wire");
    }

    @Test
    void aSlackWithinATenthOfTheAppliedOneKeepsTheAppliedOneSoJitterDoesNotReapplyTheTree() {
        KernelFlow hrt = new KernelFlow(1, 42, ServiceClass.HRT, 17_280, 69_120, 0, 288, 17_280, 0, 45);
        KernelFlow lrt = new KernelFlow(3, 44, ServiceClass.LRT, 5_760, 11_520, 0, 288, 2_880, 0, 96);
        KernelFlow be = new KernelFlow(2, 43, ServiceClass.BE, 5_760, 11_520, 0, 288, 662, 0, KernelFlow.NO_DEADLINE);
        List<KernelFlow> applied = List.of(hrt, be, lrt);
        assertEquals(applied, KernelLinks.steadySlack(List.of(hrt.withSlackMillis(49), be, lrt.withSlackMillis(87)), applied),
                "45 -> 49 and 96 -> 87 are within a tenth: the applied slack stays");
        assertEquals(List.of(hrt.withSlackMillis(40), be, lrt.withSlackMillis(107)),
                KernelLinks.steadySlack(List.of(hrt.withSlackMillis(40), be, lrt.withSlackMillis(107)), applied),
                "45 -> 40 and 96 -> 107 are more: taken");
        KernelFlow added = new KernelFlow(4, 45, ServiceClass.HRT, 5_760, 23_040, 0, 288, 5_760, 0, 20);
        assertEquals(List.of(hrt, be, lrt, added), KernelLinks.steadySlack(List.of(hrt.withSlackMillis(44), be, lrt, added), applied),
                "a new flow's slack is its own");
        assertEquals(List.of(hrt.withSlackMillis(KernelFlow.NO_DEADLINE)),
                KernelLinks.steadySlack(List.of(hrt.withSlackMillis(KernelFlow.NO_DEADLINE)), applied), "deadlines gone: taken");
        assertEquals(List.of(hrt.withSlackMillis(44)), KernelLinks.steadySlack(List.of(hrt.withSlackMillis(44)), null),
                "nothing applied yet");
    }

    @Test
    void whatAClassTookInIsWhatItSentDroppedAndQueued() {
        KernelFlowStatistics before = new KernelFlowStatistics(1, 10_000, 100, 5, 1_000, 10);
        KernelFlowStatistics after = new KernelFlowStatistics(1, 30_000, 300, 15, 3_000, 30);
        // sent 20,000; dropped 10 at the mean sent size (100 B); queue grew 2,000
        assertEquals(23_000, KernelLinks.offered(before, after), 1e-9);
        KernelFlowStatistics drained = new KernelFlowStatistics(1, 34_000, 340, 15, 0, 0);
        assertEquals(1_000, KernelLinks.offered(after, drained), 1e-9, "sent 4,000 of which 3,000 were queued before");
        KernelFlowStatistics remade = new KernelFlowStatistics(1, 500, 5, 0, 0, 0);
        assertEquals(500, KernelLinks.offered(after, remade), 1e-9, "a class made anew counts from zero");
    }

    @Test
    void aKernelShapedLinkTakingDemandFromTheKernelFollowsTheMeasureTheDataPathIsGiven() {
        ForwardingEngine<String> engine = new ForwardingEngine<>(
                List.of(LinkSpec.withDefaultShares(10_000).shapedInKernel(true)), 8, REFS,
                new EstimatorSettings(PERIOD, 0.5), 0);
        engine.submit(FlowCommand.install(new FlowEntry(1, 42, 0, FlowSpec.of(1, ServiceClass.HRT, 3_000, 0, 8_000, 20, ""),
                new long[0], 0, 0)));
        engine.applyCommands(0);
        engine.measuredDemand(1, 4_200);
        engine.measuredDemand(99, 1); // no such flow: ignored
        assertEquals(4_200, engine.statistics(0).flow(1).queue().demandRate(), 1e-9);
        engine.tick(S); // a period with no arrivals does not undo it
        assertEquals(4_200, engine.statistics(0).flow(1).queue().demandRate(), 1e-9);
    }

    /**
     * A flow's demand from the kernel is the bytes its class took in over the time between the two
     * readings of its counters. An apply before a reading (a slow one here: a second, as the
     * kernel's answers to a large tree can take) must not count as time the bytes were taken in over:
     * the demand was 1 % or 100 times what the class took in.
     */
    @Test
    void theKernelsDemandIsMeasuredOverTheTimeBetweenItsReadingsNotAroundAnApply() throws Exception {
        ForwardingEngine<String> engine = new ForwardingEngine<>(
                List.of(LinkSpec.withDefaultShares(10_000).shapedInKernel(true)), 8, REFS,
                new EstimatorSettings(PERIOD, 0.5), 0);
        engine.submit(FlowCommand.install(new FlowEntry(1, 42, 0, FlowSpec.of(1, ServiceClass.HRT, 3_000, 0, 8_000, 20, ""),
                new long[0], 0, 0)));
        engine.applyCommands(0);
        // the router's clock, with a second added inside every other apply (the apply that took that long)
        AtomicLong slept = new AtomicLong();
        org.gridstat.core.time.NanoClock clock = () -> System.nanoTime() + slept.get();
        long origin = clock.nanoTime();
        long rate = 5_000; // bytes a second the flow's class takes in, by the router's clock
        AtomicInteger applies = new AtomicInteger();
        KernelShaping kernel = plan -> new KernelLink() {
            @Override
            public void apply(List<KernelFlow> flows) {
                if (applies.incrementAndGet() % 2 == 1) {
                    slept.addAndGet(S);
                }
            }

            @Override
            public List<KernelFlowStatistics> statistics() {
                long bytes = (clock.nanoTime() - origin) * rate / S;
                return List.of(new KernelFlowStatistics(1, bytes, bytes / 100, 0, 0, 0));
            }

            @Override
            public void close() {
            }
        };
        RouterSettings settings = RouterSettings.of("k1", "127.0.0.1:0", 1, "auto", 1 << 20,
                        new String[] {"name=sub address=127.0.0.1:9 capacity=10000"}, new String[0], new String[0], S, 0.5, 8)
                .withKernelShaping(new String[] {"link=sub device=gs0 estimator=kernel"}, kernel);
        List<Double> demands = new CopyOnWriteArrayList<>();
        KernelLinks links = KernelLinks.open(settings);
        try {
            // every poll reads the counters (a period of 1 ns); each measure is handed to the data path at once
            links.start(engine, r -> {
                r.run();
                demands.add(engine.statistics(0).flow(1).queue().demandRate());
            }, clock, 1);
            long deadline = System.nanoTime() + 3 * S;
            while (applies.get() < 4 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
        } finally {
            links.close();
        }
        assertTrue(applies.get() >= 4, "applied again once a second: " + applies.get());
        assertFalse(demands.isEmpty());
        for (double d : new ArrayList<>(demands)) {
            assertEquals(rate, d, rate * 0.2, "each period's demand: " + demands);
        }
    }
}
