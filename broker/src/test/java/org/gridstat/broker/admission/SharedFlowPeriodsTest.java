package org.gridstat.broker.admission;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.junit.jupiter.api.Test;

/** The periods a flow's rate filter forwards at, as the deadline test counts them. */
class SharedFlowPeriodsTest {
    private static final long MS = 1_000_000L;
    private static final long SIXTY_HZ = 16_666_667L;

    @Test
    void aWholeRateIsSentAtItsGridsLeastSpacing() {
        // 60 Hz points lie at ⌈j·10⁹/60⌉ ns: 16,666,666 or 16,666,667 ns apart.
        assertArrayEquals(new long[] {16_666_666L}, SharedFlow.periodsOf(new long[] {SIXTY_HZ}));
        assertArrayEquals(new long[] {100 * MS}, SharedFlow.periodsOf(new long[] {100 * MS}));
    }

    @Test
    void anIntervalWhoseEventsAShorterOneAlreadySendsAddsNothing() {
        assertArrayEquals(new long[] {16_666_666L}, SharedFlow.periodsOf(new long[] {SIXTY_HZ, 33_333_333L}), "60 and 30 Hz");
        assertArrayEquals(new long[] {20 * MS}, SharedFlow.periodsOf(new long[] {20 * MS, 40 * MS}), "50 and 25 Hz");
        assertArrayEquals(new long[] {100 * MS}, SharedFlow.periodsOf(new long[] {100 * MS, 1_000 * MS, 2_000 * MS}),
                "whole seconds are points of every whole rate's grid");
        assertArrayEquals(new long[] {1_500 * MS}, SharedFlow.periodsOf(new long[] {1_500 * MS, 3_000 * MS}));
        assertArrayEquals(new long[] {10 * MS}, SharedFlow.periodsOf(new long[] {10 * MS, 30 * MS}),
                "30 ms is no whole rate, but every multiple of it is a 100 Hz point");
        // 1/60 s does not divide a second into whole nanoseconds: its points are not the multiples of 16,666,667 ns.
        assertArrayEquals(new long[] {16_666_666L, 50_000_001L},
                SharedFlow.periodsOf(new long[] {SIXTY_HZ, 50_000_001L}));
    }

    @Test
    void intervalsThatAreNotMultiplesOfOneAnotherAreSentEach() {
        assertArrayEquals(new long[] {16_666_666L, 20 * MS}, SharedFlow.periodsOf(new long[] {SIXTY_HZ, 20 * MS}),
                "60 and 50 Hz");
        assertArrayEquals(new long[] {20 * MS, 30 * MS}, SharedFlow.periodsOf(new long[] {20 * MS, 30 * MS}),
                "50 Hz and 30 ms, which is no whole rate");
        assertArrayEquals(new long[] {1_500 * MS, 2_000 * MS}, SharedFlow.periodsOf(new long[] {1_500 * MS, 2_000 * MS}));
    }

    @Test
    void aFlowKeepsItsLargestFrameAndTightestDeadline() {
        SharedFlow f = new SharedFlow();
        SubscriptionRequest a = request(1, 260, 20 * MS, ServiceClass.HRT);
        SubscriptionRequest b = request(2, 100, 30 * MS, ServiceClass.LRT);
        SubscriptionRequest c = request(3, 500, 40 * MS, ServiceClass.BE);
        f.add(a, 7 * MS);
        f.add(b, 5 * MS);
        f.add(c, 1 * MS);
        assertEquals(5 * MS, f.hopDeadline(), "a best-effort subscriber's deadline does not count");
        assertEquals(528, f.wireBytes());
        assertArrayEquals(new long[] {20 * MS, 30 * MS}, f.periods(), "40 ms is a multiple of 20 ms");
        assertArrayEquals(new long[] {20 * MS, 30 * MS}, f.periodsWith(60 * MS));
        assertArrayEquals(new long[] {10 * MS}, f.periodsWith(10 * MS));
        assertTrue(f.unchangedBy(request(4, 260, 30 * MS, ServiceClass.HRT), 9 * MS));
        assertFalse(f.unchangedBy(request(4, 260, 30 * MS, ServiceClass.HRT), 4 * MS), "a tighter deadline");
        assertFalse(f.unchangedBy(request(4, 600, 30 * MS, ServiceClass.BE), 9 * MS), "a larger frame");
        assertFalse(f.unchangedBy(request(4, 100, 25 * MS, ServiceClass.BE), 9 * MS), "another interval");
        f.remove(b, 5 * MS);
        assertEquals(7 * MS, f.hopDeadline());
        assertArrayEquals(new long[] {20 * MS}, f.periods());
        assertThrows(IllegalStateException.class, () -> f.remove(a, 6 * MS), "not added with that deadline");
        f.remove(a, 7 * MS);
        assertEquals(SharedFlow.NO_DEADLINE, f.hopDeadline());
        assertEquals(528, f.wireBytes());
    }

    private static SubscriptionRequest request(long id, int frame, long interval, ServiceClass c) {
        return new SubscriptionRequest(id, VariableId.of(9), "a", "b", frame, QosSpec.builder()
                .interval(Duration.ofNanos(interval)).latencyBound(Duration.ofSeconds(1)).serviceClass(c).build());
    }
}
