package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
import org.gridstat.core.forward.SourceTimeTrust;
import org.gridstat.core.filter.SampleGrid;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.wire.RejectReason;
import org.junit.jupiter.api.Test;

/** Flow changes applied to a running router, as the broker will send them. */
class LiveFlowChangeTest {
    private static final long S = 1_000_000_000L;
    private static final long T0 = 1_790_000_000L * S;

    @Test
    void aRunningRouterTakesNewRatesThenTheRemovalOfItsFlow() throws Exception {
        List<Long> got = new CopyOnWriteArrayList<>();
        try (Subscriber sub = Subscriber.open(new InetSocketAddress("127.0.0.1", 0), e -> got.add(e.sourceTimeNanos()));
             DataPlane router = DataPlane.start(RouterSettings.of("live", "127.0.0.1:0", 1, "auto", 1 << 20,
                     new String[] {"name=sub address=127.0.0.1:" + sub.localAddress().getPort()},
                     new String[] {"id=5 variable=9 link=sub class=HRT assured=20000 rates=60 publisher=60"},
                     new String[0], S, 0.5, 16).trusting(new SourceTimeTrust(Long.MAX_VALUE, Long.MAX_VALUE))); // a replayed timeline
             Publisher publisher = Publisher.connect(router.localAddress())) {
            Publication p = publisher.publication(VariableId.of(9), ServiceClass.HRT, null);
            SampleGrid sixty = SampleGrid.ofRate(60);
            long[] t = {T0};
            Runnable oneSecond = () -> {
                for (int i = 0; i < 60; i++, t[0] = sixty.next(t[0])) {
                    p.publish(1.0, t[0]);
                }
            };

            oneSecond.run();
            awaitCount(got, 60);
            assertEquals(60, got.size(), "60 Hz as configured");

            router.submit(List.of(FlowCommand.install(new FlowEntry(2, 9, 0,
                    FlowSpec.of(5, ServiceClass.HRT, 20_000, 0, 1_000_000, 20, "substation-7"),
                    new long[] {SampleGrid.ofRate(20).intervalNanos()}, sixty.intervalNanos(), 0))));
            awaitFlowVersion(router, 2);
            got.clear();
            long sentBefore = router.counters().forwarded();
            oneSecond.run();
            awaitCount(got, 20);
            awaitReceived(router, 60 * 2);
            assertEquals(20, router.counters().forwarded() - sentBefore, "20 Hz after the change");
            assertEquals(20, got.size());
            assertEquals("substation-7", router.flows().get(0).spec().correlationGroup());

            router.submit(List.of(FlowCommand.remove(5, 3), FlowCommand.install(new FlowEntry(2, 9, 0,
                    FlowSpec.of(5, ServiceClass.HRT, 20_000, 1_000_000), new long[0], 0, 0))));
            long deadline = System.nanoTime() + 5 * S;
            while (!router.flows().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertTrue(router.flows().isEmpty(), "removed, and the late install of version 2 stays out");
            got.clear();
            long sentBeforeRemoval = router.counters().forwarded();
            oneSecond.run();
            awaitReceived(router, 60 * 3);
            assertEquals(60, router.counters().dropped(RejectReason.UNKNOWN_VARIABLE), "every sample refused");
            assertEquals(sentBeforeRemoval, router.counters().forwarded(), "and none sent, so none can arrive");
            assertEquals(0, got.size());
            assertEquals(1, router.counters().engine().commandsStale());
        }
    }

    private static void awaitCount(List<?> list, int n) throws InterruptedException {
        long deadline = System.nanoTime() + 5 * S;
        while (list.size() < n && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    /** Waits until the router has taken {@code n} datagrams in all. */
    private static void awaitReceived(DataPlane router, long n) throws InterruptedException {
        long deadline = System.nanoTime() + 5 * S;
        while (router.counters().received() < n && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(n, router.counters().received());
    }

    private static void awaitFlowVersion(DataPlane router, long version) throws InterruptedException {
        long deadline = System.nanoTime() + 5 * S;
        while (router.flows().get(0).version() != version && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(version, router.flows().get(0).version());
    }
}
