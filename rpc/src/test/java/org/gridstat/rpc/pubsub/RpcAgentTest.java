package org.gridstat.rpc.pubsub;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.gridstat.core.time.SystemClock;
import org.gridstat.rpc.transport.Timers;
import org.junit.jupiter.api.Test;

/** The agent's thread: its bounded queue, its timers, one clock reading per cycle, its failures and its end. */
class RpcAgentTest {
    private static final long MS = 1_000_000L;

    @Test
    void aFullQueueDropsAndCountsNetworkCommandsAndRefusesApplicationOnesWithoutBlocking() throws Exception {
        try (RpcAgent agent = RpcAgent.start("test-agent", 8, SystemClock.INSTANCE)) {
            CountDownLatch busy = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            agent.execute(() -> {
                busy.countDown();
                await(release);
            });
            assertTrue(busy.await(10, TimeUnit.SECONDS));
            AtomicInteger ran = new AtomicInteger();
            for (int i = 0; i < 8; i++) {
                assertTrue(agent.offer(ran::incrementAndGet), "command " + i + " fits the queue of 8");
            }
            long before = System.nanoTime();
            for (int i = 0; i < 5; i++) {
                assertFalse(agent.offer(ran::incrementAndGet), "the queue is full: dropped at once");
            }
            assertThrows(RejectedExecutionException.class, () -> agent.execute(ran::incrementAndGet));
            assertTrue(agent.submit(() -> 1).isCompletedExceptionally(), "a submit to a full queue fails its future");
            assertTrue(System.nanoTime() - before < TimeUnit.SECONDS.toNanos(5), "nothing waited for the busy agent");
            assertEquals(5, agent.dropped());
            assertEquals(2, agent.refused());
            assertEquals(8, agent.queued());
            release.countDown();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (ran.get() < 8 && System.nanoTime() < end) {
                Thread.sleep(1);
            }
            assertEquals(8, ran.get(), "every command queued ran, none of those dropped");
            assertEquals(0, agent.queued());
        }
    }

    @Test
    void timersRunInTheAgentsThreadInTimeOrderAndACancelledOneNever() throws Exception {
        try (RpcAgent agent = RpcAgent.start("test-agent")) {
            List<String> order = new ArrayList<>();
            List<Boolean> inAgent = new ArrayList<>();
            CountDownLatch done = new CountDownLatch(1);
            agent.execute(() -> {
                agent.after(30 * MS, () -> {
                    order.add("c");
                    inAgent.add(agent.inAgentThread());
                    done.countDown();
                });
                agent.after(10 * MS, () -> order.add("a"));
                Timers.Cancellable off = agent.after(20 * MS, () -> order.add("cancelled"));
                agent.after(20 * MS, () -> order.add("b"));
                off.cancel();
            });
            assertTrue(done.await(10, TimeUnit.SECONDS));
            assertEquals(List.of("a", "b", "c"), agent.submit(() -> List.copyOf(order)).get());
            assertEquals(List.of(true), inAgent);
        }
    }

    @Test
    void theClocksAreReadOncePerCycle() throws Exception {
        try (RpcAgent agent = RpcAgent.start("test-agent")) {
            java.util.concurrent.CompletableFuture<Long> later = new java.util.concurrent.CompletableFuture<>();
            long[] readings = agent.submit(() -> {
                long n0 = agent.nowNanos();
                long e0 = agent.epochNanos();
                Thread.sleep(5);
                // due 1 ms after this cycle's reading: it runs in a later cycle, never this one (a command
                // submitted from outside could still be drained by this cycle)
                agent.after(MS, () -> later.complete(agent.nowNanos()));
                return new long[] {n0, agent.nowNanos(), e0, agent.epochNanos()};
            }).get(10, TimeUnit.SECONDS);
            assertEquals(readings[0], readings[1], "one monotonic reading per cycle");
            assertEquals(readings[2], readings[3], "one epoch reading per cycle");
            assertTrue(later.get(10, TimeUnit.SECONDS) >= readings[0] + MS, "a later cycle reads the clock again");
        }
    }

    @Test
    void aTaskThatThrowsIsCountedAndTheAgentGoesOn() throws Exception {
        try (RpcAgent agent = RpcAgent.start("test-agent")) {
            agent.execute(() -> {
                throw new IllegalStateException("an actuator's bug");
            });
            agent.execute(() -> agent.after(0, () -> {
                throw new IllegalStateException("a timer's bug");
            }));
            assertEquals(42, agent.submit(() -> 42).get(10, TimeUnit.SECONDS)); // commands after a throw still run
            // the timer runs after the commands of its duty cycle, so it may come after the answer above
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (agent.failures() < 2 && System.nanoTime() < end) {
                agent.submit(() -> null).get(10, TimeUnit.SECONDS);
            }
            assertEquals(2, agent.failures());
            assertTrue(agent.running());
        }
    }

    @Test
    void closingStopsTheThreadAndRefusesWhatComesAfter() {
        RpcAgent agent = RpcAgent.start("test-agent");
        agent.close();
        assertFalse(agent.running());
        assertFalse(agent.offer(() -> { }));
        assertEquals(1, agent.dropped());
        assertThrows(RejectedExecutionException.class, () -> agent.execute(() -> { }));
    }

    @Test
    void cancelledTimersAreSweptOnceTheyAreTheMajorityAndLiveOnesAreBounded() {
        TimerQueue q = new TimerQueue(5000);
        List<Timers.Cancellable> all = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            all.add(q.add(1000 + i, () -> { }));
        }
        for (int i = 0; i < 3000; i++) {
            all.get(i).cancel();
        }
        assertEquals(1000, q.live());
        assertEquals(4000, q.nextAt(), "the first live timer");
        for (int i = 0; i < 4000; i++) {
            q.add(10_000 + i, () -> { });
        }
        assertThrows(IllegalStateException.class, () -> q.add(0, () -> { }), "5,000 live timers at most");
        int ran = 0;
        while (q.pollDue(Long.MAX_VALUE) != null) {
            ran++;
        }
        assertEquals(5000, ran, "the cancelled ones never ran");
    }

    private static void await(CountDownLatch l) {
        try {
            l.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
