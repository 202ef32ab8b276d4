package org.gridstat.core.sched;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.model.ServiceClass;
import org.junit.jupiter.api.Test;

/**
 * A flow's least slack on a manual clock: the least time its events had left on arrival before
 * they could no longer meet their end-to-end deadline, over the last period with arrivals. A
 * kernel-shaped link bounds the flow's queue by it.
 */
class LeastSlackTest {
    private static final long MS = 1_000_000L;
    private static final long PERIOD = 100 * MS;

    private final LinkScheduler<Integer> link = new LinkScheduler<>(LinkSpec.withDefaultShares(125_000_000L), 4, e -> { },
            new EstimatorSettings(PERIOD, 0.5), 0);
    private final int slot = link.addFlow(FlowSpec.of(1, ServiceClass.HRT, 100_000, 400_000), 0);
    private final int noDeadlines = link.addFlow(FlowSpec.of(2, ServiceClass.BE, 10_000, 40_000), 0);

    /** Queues an event arriving at {@code atMs} that expires {@code slackMs} later, and sends it. */
    private void arrive(int flow, long atMs, long slackMs) {
        long at = atMs * MS;
        long expiry = slackMs == Long.MAX_VALUE ? Long.MAX_VALUE : at + slackMs * MS;
        assertTrue(link.enqueue(flow, 1, 260, expiry == Long.MAX_VALUE ? expiry : at + slackMs * MS / 2, expiry, at));
        link.dequeue(at);
    }

    private long leastSlack(long flowId) {
        List<Long> found = new ArrayList<>();
        link.visitRates((spec, assured, shortfall, wireBytes, heldHz, leastSlack) -> {
            if (spec.flowId() == flowId) {
                found.add(leastSlack);
            }
        });
        return found.get(0);
    }

    @Test
    void theLeastSlackOfThePeriodIsPublishedWhenItEnds() {
        assertEquals(Long.MAX_VALUE, leastSlack(1), "nothing arrived yet");
        arrive(slot, 10, 48);
        arrive(slot, 30, 44);
        arrive(slot, 50, 47);
        assertEquals(Long.MAX_VALUE, leastSlack(1), "published when the period ends, not before");
        link.maybeTick(100 * MS);
        assertEquals(44 * MS, leastSlack(1));
        arrive(slot, 110, 46);
        link.maybeTick(200 * MS);
        assertEquals(46 * MS, leastSlack(1), "each period its own least, not the least ever");
    }

    @Test
    void aPeriodWithoutArrivalsKeepsTheLastAndEventsWithoutADeadlineGiveNone() {
        arrive(slot, 10, 45);
        link.maybeTick(100 * MS);
        link.maybeTick(200 * MS);
        link.maybeTick(300 * MS);
        assertEquals(45 * MS, leastSlack(1), "a slow flow's figure does not come and go");
        arrive(noDeadlines, 310, Long.MAX_VALUE);
        link.maybeTick(400 * MS);
        assertEquals(Long.MAX_VALUE, leastSlack(2));
    }

    @Test
    void aFlowWhoseEventsStopCarryingDeadlinesHasNoneAfterAPeriodOfThem() {
        arrive(slot, 10, 45);
        link.maybeTick(100 * MS);
        arrive(slot, 110, Long.MAX_VALUE);
        link.maybeTick(200 * MS);
        assertEquals(Long.MAX_VALUE, leastSlack(1), "the kernel gives its leaf the link's queue again");
    }

    @Test
    void anEventArrivingTooLateToMakeItDoesNotCount() {
        arrive(slot, 10, 45);
        long at = 20 * MS;
        link.enqueue(slot, 1, 260, at - 5 * MS, at - 2 * MS, at); // dropped at the head, never sent
        link.enqueue(slot, 1, 260, at, at, at);
        link.dequeue(at);
        link.maybeTick(100 * MS);
        assertEquals(45 * MS, leastSlack(1), "what could not make it any more says nothing of the queue's room");
    }
}
