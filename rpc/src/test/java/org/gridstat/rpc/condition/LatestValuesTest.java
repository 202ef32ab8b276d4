package org.gridstat.rpc.condition;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The newest source time wins whatever the arrival order; the future and a full table are refused and counted. */
class LatestValuesTest {
    private static final long NOW = 1_800_000_000_000_000_000L;
    private final AtomicLong clock = new AtomicLong(NOW);
    private final LatestValues values = new LatestValues(4, clock::get);

    @Test
    void anUnknownVariableHasNoSample() {
        assertFalse(values.known("x"));
        assertTrue(Double.isNaN(values.value("x")));
        assertEquals(Long.MIN_VALUE, values.sourceTimeNanos("x"));
        assertEquals(0, values.size());
    }

    @Test
    void theGreaterSourceTimeWinsWhateverTheArrivalOrder() {
        assertTrue(values.update("x", 1, NOW - 30));
        assertTrue(values.update("x", 2, NOW - 10));
        assertFalse(values.update("x", 3, NOW - 20), "a late copy of an older sample");
        assertFalse(values.update("x", 4, NOW - 10), "a second sample with the same source time");
        assertEquals(2, values.value("x"));
        assertEquals(NOW - 10, values.sourceTimeNanos("x"));
        assertEquals(2, values.ignoredOlder());
        assertTrue(values.update("x", 5, NOW - 9));
        assertEquals(5, values.value("x"));
        assertEquals(NOW - 9, values.sourceTimeNanos("x"));
        assertEquals(1, values.size());
    }

    @Test
    void aNaNIsASample() {
        assertTrue(values.update("x", Double.NaN, NOW));
        assertTrue(values.known("x"));
        assertTrue(Double.isNaN(values.value("x")));
    }

    @Test
    void aSampleStampedMoreThanTheToleranceAheadIsRefused() {
        assertTrue(values.update("x", 1, NOW + LatestValues.FUTURE_TOLERANCE_NANOS));
        assertFalse(values.update("x", 2, NOW + LatestValues.FUTURE_TOLERANCE_NANOS + 1));
        assertFalse(values.update("y", 2, Long.MAX_VALUE));
        assertEquals(2, values.refusedFuture());
        assertEquals(1, values.value("x"));
        assertFalse(values.known("y"), "a refused sample does not take a slot");
        assertEquals(1, values.size());
        clock.set(NOW + 1);
        assertTrue(values.update("x", 2, NOW + LatestValues.FUTURE_TOLERANCE_NANOS + 1), "accepted once the clock has moved on");
    }

    @Test
    void theEndsOfLongDoNotWrap() {
        assertTrue(values.update("x", 1, Long.MIN_VALUE));
        assertEquals(Long.MIN_VALUE, values.sourceTimeNanos("x"));
        assertTrue(values.update("x", 2, Long.MIN_VALUE + 1));
        clock.set(Long.MAX_VALUE - 10);
        assertTrue(values.update("x", 3, Long.MAX_VALUE), "clock + tolerance saturates instead of wrapping negative");
        assertFalse(values.update("x", 4, Long.MAX_VALUE));
        assertEquals(3, values.value("x"));
        clock.set(Long.MIN_VALUE);
        assertFalse(values.update("y", 1, Long.MAX_VALUE));
        assertTrue(values.update("y", 1, Long.MIN_VALUE + LatestValues.FUTURE_TOLERANCE_NANOS));
        assertEquals(1, values.refusedFuture());
    }

    @Test
    void aNewNameBeyondTheBoundIsRefused() {
        for (int i = 0; i < 4; i++) {
            assertTrue(values.update("v" + i, i, NOW));
        }
        assertFalse(values.update("v4", 4, NOW));
        assertFalse(values.known("v4"));
        assertEquals(1, values.refusedFull());
        assertEquals(4, values.size());
        assertTrue(values.update("v0", 10, NOW + 1), "a variable already held is still updated");
        assertEquals(10, values.value("v0"));
        assertEquals(1, values.refusedFull());
        assertEquals(4, values.maxVariables());
    }

    @Test
    void aBoundBelowOneIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new LatestValues(0, () -> 0));
        assertEquals("maxVariables must be at least 1, got 0", e.getMessage());
    }

    @Test
    void concurrentWritersLeaveTheNewestSample() throws Exception {
        int threads = 4;
        int perThread = 20_000;
        String[] names = {"a", "b", "c"};
        LatestValues shared = new LatestValues(3, () -> NOW);
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> writers = new ArrayList<>();
        for (int k = 0; k < threads; k++) {
            int offset = k;
            Thread t = new Thread(() -> {
                await(start);
                // Thread k writes source times k, k+4, k+8, …: the threads' samples interleave in time.
                for (int i = 0; i < perThread; i++) {
                    long time = NOW - 1_000_000L + (long) i * threads + offset;
                    for (String name : names) {
                        shared.update(name, time, time);
                    }
                }
            });
            writers.add(t);
            t.start();
        }
        start.countDown();
        for (Thread t : writers) {
            t.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(t.isAlive());
        }
        long newest = NOW - 1_000_000L + (long) (perThread - 1) * threads + (threads - 1);
        for (String name : names) {
            assertEquals(newest, shared.sourceTimeNanos(name), name);
            assertEquals((double) newest, shared.value(name), name);
        }
        assertEquals(3, shared.size());
        assertEquals(0, shared.refusedFull());
    }

    @Test
    void concurrentNewNamesNeverOverfillTheTable() throws Exception {
        int threads = 8;
        int namesEach = 100;
        LatestValues shared = new LatestValues(50, () -> NOW);
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> writers = new ArrayList<>();
        for (int k = 0; k < threads; k++) {
            int thread = k;
            Thread t = new Thread(() -> {
                await(start);
                for (int i = 0; i < namesEach; i++) {
                    // Half the names are shared by all threads, half are each thread's own.
                    String name = i % 2 == 0 ? "shared" + i : "own" + thread + "-" + i;
                    shared.update(name, i, NOW);
                }
            });
            writers.add(t);
            t.start();
        }
        start.countDown();
        for (Thread t : writers) {
            t.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(t.isAlive());
        }
        assertEquals(50, shared.size());
        long offeredNotHeld = 0;
        for (int k = 0; k < threads; k++) {
            for (int i = 0; i < namesEach; i++) {
                String name = i % 2 == 0 ? "shared" + i : "own" + k + "-" + i;
                offeredNotHeld += shared.known(name) ? 0 : 1;
            }
        }
        assertEquals(offeredNotHeld, shared.refusedFull(), "an offer is refused exactly when its name never got a slot");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
