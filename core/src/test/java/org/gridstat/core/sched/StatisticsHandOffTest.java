package org.gridstat.core.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.gridstat.core.model.ServiceClass;
import org.junit.jupiter.api.Test;

/** Statistics read on another thread while the data path reuses flow slots. */
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
}
