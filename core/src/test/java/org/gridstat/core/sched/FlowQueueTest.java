package org.gridstat.core.sched;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.model.ServiceClass;
import org.junit.jupiter.api.Test;

/** A flow's buffer is memory only as deep as its backlog has been, never deeper than its bound. */
class FlowQueueTest {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static long allocated() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    @Test
    void addingAFlowWithTheLargestBufferAllocatesNoMoreThanAddingOneWithTheDefault() {
        LinkScheduler<String> link = new LinkScheduler<>(LinkSpec.withDefaultShares(125_000_000L), 4, e -> { },
                EstimatorSettings.DEFAULT, 0);
        link.removeFlow(link.addFlow(FlowSpec.of(9, ServiceClass.BE, 0, 0, 1_000, 20, ""), 0)); // loads the classes
        allocated();
        long before = allocated();
        int small = link.addFlow(FlowSpec.of(1, ServiceClass.BE, 0, 0, 1_000, FlowSpec.DEFAULT_BUFFER_EVENTS, ""), 0);
        long smallBytes = allocated() - before;
        before = allocated();
        int large = link.addFlow(FlowSpec.of(2, ServiceClass.BE, 0, 0, 1_000, 65_536, ""), 0);
        long largeBytes = allocated() - before;
        // Up front, 65,536 events of 48 B each would be 3 MB.
        assertTrue(largeBytes - smallBytes < 1_024, "a flow of 65,536 events took " + largeBytes
                + " B, one of 20 took " + smallBytes + " B");
        assertNotEquals(small, large);
    }

    @Test
    void theRingGrowsByDoublingUpToItsBoundKeepingArrivalOrderAcrossTheWrap() {
        FlowQueue<String> q = new FlowQueue<>(100);
        assertEquals(FlowQueue.INITIAL_CAPACITY, q.capacity(), "a new flow holds a few events");
        String[] names = new String[300];
        for (int i = 0; i < names.length; i++) {
            names[i] = "e" + i;
        }
        // Move the head off slot 0 so that growing has to unwrap the ring.
        int in = 0;
        int out = 0;
        for (int i = 0; i < 5; i++) {
            q.push(names[in], in, in, in, in, in);
            in++;
        }
        for (int i = 0; i < 3; i++) {
            assertEquals(names[out++], q.pop());
        }
        List<Integer> capacities = new ArrayList<>();
        while (!q.isFull()) {
            q.push(names[in], in, 1_000L + in, 2_000L + in, 3_000L + in, 4_000L + in);
            in++;
            if (!capacities.contains(q.capacity())) {
                capacities.add(q.capacity());
            }
        }
        assertEquals(100, q.size(), "full at its bound");
        assertEquals(List.of(16, 32, 64, 100), capacities, "doubled, the last step cut to the bound");
        while (!q.isEmpty()) {
            assertEquals(names[out], q.headEvent());
            if (out >= 5) {
                assertEquals(out, q.headSize());
                assertEquals(1_000L + out, q.headDeadline());
                assertEquals(2_000L + out, q.headExpiry());
                assertEquals(3_000L + out, q.headOrder());
                assertEquals(4_000L + out, q.headArrival());
            }
            assertEquals(names[out++], q.pop());
        }
        assertEquals(in, out, "every event out, in order");
    }

    @Test
    void aGrownRingAllocatesNothingMore() {
        FlowQueue<String> q = new FlowQueue<>(1_024);
        String[] names = new String[1_024];
        for (int i = 0; i < names.length; i++) {
            names[i] = "e" + i;
        }
        for (String n : names) {
            q.push(n, 260, 0, 0, 0, 0);
        }
        while (!q.isEmpty()) {
            q.pop();
        }
        allocated();
        long before = allocated();
        for (int round = 0; round < 10; round++) {
            for (String n : names) {
                q.push(n, 260, 0, 0, 0, 0);
            }
            while (!q.isEmpty()) {
                q.pop();
            }
        }
        long bytes = allocated() - before;
        assertEquals(1_024, q.capacity(), "never grown again");
        // Growing again would take six new arrays of 1,024 (about 45 KB); the JVM itself may account
        // a few bytes to the thread while it compiles the loop.
        assertTrue(bytes < 1_024, bytes + " B allocated by 10,240 events through a grown ring");
    }
}
