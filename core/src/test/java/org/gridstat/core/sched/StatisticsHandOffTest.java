package org.gridstat.core.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.gridstat.core.model.ServiceClass;
import org.junit.jupiter.api.Test;

/** Statistics read on another thread while the data path reuses flow slots, and the latency periods they end. */
class StatisticsHandOffTest {
    private static final int FLOWS = 3_000;
    /** Fewer than the smallest flow id, so that no other flow's byte count is a multiple of an id. */
    private static final int ARRIVALS = 8;

    @Test
    void aSnapshotNeverPairsOneFlowsSpecWithAnotherFlowsCounters() throws InterruptedException {
        // Flow ids are distinct primes above 1,000 and every event of a flow is as many bytes as its
        // id, so a flow's arrival bytes are a multiple of its id, and counters of another flow (1 to
        // ARRIVALS events of another prime's bytes) never are.
        long[] ids = new long[FLOWS];
        BigInteger p = BigInteger.valueOf(1_000);
        for (int i = 0; i < FLOWS; i++) {
            p = p.nextProbablePrime();
            ids[i] = p.longValueExact();
        }
        LinkScheduler<Object> s = new LinkScheduler<>(LinkSpec.withDefaultShares(1_000_000_000), 2, e -> { },
                new EstimatorSettings(1_000_000_000L, 1.0), 0);
        AtomicBoolean done = new AtomicBoolean();
        AtomicLong checked = new AtomicLong();
        AtomicReference<String> mismatch = new AtomicReference<>();
        CountDownLatch reading = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            reading.countDown();
            boolean last = false;
            while (!last && mismatch.get() == null) {
                last = done.get();
                for (FlowStatistics f : s.statistics().flows()) {
                    long bytes = f.queue().arrivalBytes();
                    if (bytes % f.flowId() != 0 || bytes / f.flowId() > ARRIVALS) {
                        mismatch.set(f.toString() + ": " + bytes + " arrival bytes");
                    }
                    checked.incrementAndGet();
                }
            }
        }, "statistics-reader");
        reader.start();
        reading.await();

        Object event = new Object();
        int[] slots = new int[2];
        for (int i = 0; i < FLOWS; i++) {
            int k = i % 2;
            if (i >= 2) {
                s.removeFlow(slots[k]);
            }
            slots[k] = s.addFlow(FlowSpec.of(ids[i], ServiceClass.BE, 1_000, 0, 1_000_000, 16, ""), 0);
            for (int j = 0; j < ARRIVALS; j++) {
                assertTrue(s.enqueue(slots[k], event, (int) ids[i], Long.MAX_VALUE, Long.MAX_VALUE, 0));
            }
        }
        done.set(true);
        reader.join();
        assertNull(mismatch.get());
        assertTrue(checked.get() > 0, "the reader saw flows");
        assertEquals(ARRIVALS * ids[FLOWS - 1], s.statistics().flow(ids[FLOWS - 1]).queue().arrivalBytes());
    }

    /** {@code n} events of flow {@code slot}, each queued at {@code now} and sent {@code latency} later; returns the time after. */
    private static long sendEach(LinkScheduler<Object> s, int slot, int n, long latency, long now) {
        for (int i = 0; i < n; i++) {
            assertTrue(s.enqueue(slot, new Object(), 100, Long.MAX_VALUE, Long.MAX_VALUE, now));
            now += latency;
            assertNotNull(s.dequeue(now), "sent " + latency + " ns after it came");
        }
        return now;
    }

    @Test
    void aFlowsPeriodLatencyIsThatOfTheEventsSentSinceTheStatisticsThatEndedTheLastPeriod() {
        LinkScheduler<Object> s = new LinkScheduler<>(LinkSpec.withDefaultShares(1_000_000_000), 2, e -> { },
                new EstimatorSettings(1_000_000_000L, 1.0), 0);
        int slot = s.addFlow(FlowSpec.of(7, ServiceClass.HRT, 10_000_000, 0, 100_000_000, 64, ""), 0);
        assertEquals(0, s.statistics(true).flow(7).queue().periodLatencyP99Nanos(), "nothing sent: none");

        long now = sendEach(s, slot, 20, 2_000_000, 1_000_000);
        QueueStatistics first = s.statistics(true).flow(7).queue();
        assertEquals(2_000_000, first.periodLatencyP99Nanos(), 2_000_000 / 100.0, "2 ms, to two significant digits");
        assertEquals(first.latencyP99Nanos(), first.periodLatencyP99Nanos(), "the first period is the queue's life so far");

        now = sendEach(s, slot, 20, 100_000, now);
        QueueStatistics peek = s.statistics().flow(7).queue(); // another reader: it ends no period
        assertEquals(100_000, peek.periodLatencyP99Nanos(), 100_000 / 100.0, "only the events since the period began");
        assertEquals(2_000_000, peek.latencyP99Nanos(), 2_000_000 / 100.0, "over the queue's life");
        now = sendEach(s, slot, 1, 100_000, now);
        assertEquals(100_000, s.statistics(true).flow(7).queue().periodLatencyP99Nanos(), 100_000 / 100.0,
                "the period's events seen by the other reader are still the period's");

        QueueStatistics idle = s.statistics(true).flow(7).queue();
        assertEquals(0, idle.periodLatencyP99Nanos(), "none sent in the period");
        assertEquals(2_000_000, idle.latencyP99Nanos(), 2_000_000 / 100.0);
        sendEach(s, slot, 3, 40_000_000, now);
        assertEquals(40_000_000, s.statistics(true).flow(7).queue().periodLatencyP99Nanos(), 40_000_000 / 100.0);
    }
}
