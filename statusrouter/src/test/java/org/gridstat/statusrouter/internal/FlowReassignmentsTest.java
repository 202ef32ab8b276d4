package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.gridstat.core.congestion.Decision;
import org.gridstat.core.model.ServiceClass;
import org.junit.jupiter.api.Test;

/** The per-flow count of congestion control's reassignments: what counts, growth, and a reader on another thread. */
class FlowReassignmentsTest {
    private static Decision of(Decision.Kind kind, long flowId) {
        return new Decision(kind, flowId, ServiceClass.BE, 6_000, 5_000, kind == Decision.Kind.LENT ? 1 : -1);
    }

    @Test
    void eachDecisionThatMovesAFlowsRateCountsForThatFlowAndAlarmsDoNot() {
        FlowReassignments r = new FlowReassignments(id -> true);
        for (Decision.Kind k : Decision.Kind.values()) {
            r.decided(of(k, 2));
        }
        r.decided(of(Decision.Kind.GRANTED, 1));
        assertEquals(4, r.of(2), "lent, returned, granted, released; not unmet or met");
        assertEquals(1, r.of(1), "the borrower's own decision, not the lender's that names it");
        assertEquals(0, r.of(3));
        r.count(-7);
        r.count(0);
        assertEquals(1, r.of(-7), "any id, negative or zero too");
        assertEquals(1, r.of(0));
    }

    @Test
    void growingKeepsTheFlowsTheRouterHoldsAndForgetsTheOthers() {
        Set<Long> held = new HashSet<>();
        FlowReassignments r = new FlowReassignments(held::contains);
        for (long id = 1; id <= 1_000; id++) {
            held.add(id);
            for (int i = 0; i < id % 5; i++) {
                r.count(id);
            }
        }
        for (long id = 1; id <= 1_000; id++) {
            assertEquals(id % 5, r.of(id), "flow " + id);
        }
        assertEquals(800, r.size(), "a flow never moved has no entry");
        held.clear(); // every one torn down: the next growth forgets them
        int added = 0;
        int before;
        do { // new flows until the table grows
            before = r.size();
            held.add(5_001L + added);
            r.count(5_001L + added);
            added++;
        } while (r.size() == before + 1);
        assertEquals(added, r.size(), "the removed flows were forgotten at the growth, the held ones kept");
        assertEquals(0, r.of(4), "forgotten");
        assertEquals(1, r.of(5_001));
        assertEquals(1, r.of(5_000 + added));
    }

    @Test
    void countingAFlowAlreadyCountedAllocatesNothing() {
        FlowReassignments r = new FlowReassignments(id -> true);
        for (long id = 0; id < 20; id++) {
            r.count(id);
        }
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        for (int round = 0; round < 3; round++) { // warmed, the loop compiled, at most one round sees the JIT's own
            long before = threads.getThreadAllocatedBytes(self);
            for (int i = 0; i < 200_000; i++) {
                r.count(i % 20);
            }
            long bytes = threads.getThreadAllocatedBytes(self) - before;
            if (bytes < 200_000 / 100) {
                return;
            }
        }
        fail("counting allocates");
    }

    @Test
    void aReaderOnAnotherThreadSeesEachFlowsCountOnlyGrowWhileTheTableGrowsUnderIt() throws Exception {
        FlowReassignments r = new FlowReassignments(id -> true);
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<String> wrong = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            long[] last = new long[500];
            while (!done.get() && wrong.get() == null) {
                for (int id = 0; id < last.length; id++) {
                    long n = r.of(id);
                    if (n < last[id] || n > 200L * (id % 7 + 1)) {
                        wrong.set("flow " + id + ": " + last[id] + " then " + n);
                    }
                    last[id] = n;
                }
            }
        }, "reassignments-reader");
        reader.start();
        for (int round = 0; round < 200; round++) {
            for (int id = 0; id < 500; id++) { // new flows make the table grow under the reader in the first round
                for (int k = 0; k <= id % 7; k++) {
                    r.count(id);
                }
            }
        }
        done.set(true);
        reader.join();
        assertNull(wrong.get());
        for (int id = 0; id < 500; id++) {
            assertEquals(200L * (id % 7 + 1), r.of(id));
        }
    }
}
