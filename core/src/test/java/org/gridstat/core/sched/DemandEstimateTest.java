package org.gridstat.core.sched;

import static org.junit.jupiter.api.Assertions.*;

import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.wire.WireFormat;
import org.junit.jupiter.api.Test;

/**
 * A flow's demand estimate on a manual clock: network jitter that carries a periodic source's
 * sample across a period's edge is not a step of demand; a genuine step is, within the period;
 * and a source's timestamps cannot raise its own estimate.
 */
class DemandEstimateTest {
    private static final long MS = 1_000_000L;
    private static final long PERIOD = 100 * MS;
    private static final int BYTES = 260;
    private static final double WIRE = BYTES + WireFormat.DATAGRAM_OVERHEAD;
    /** Epoch time of the first sample: any value; the estimate reads differences only. */
    private static final long EPOCH = 1_767_225_600_000_000_000L;

    private final LinkScheduler<Integer> link = new LinkScheduler<>(LinkSpec.withDefaultShares(125_000_000L), 4, e -> { },
            new EstimatorSettings(PERIOD, 0.5), 0);
    private final int slot = link.addFlow(FlowSpec.of(1, ServiceClass.HRT, 100_000, 400_000), 0);

    /** Queues a sample stamped {@code stamp} ms after {@link #EPOCH}, arriving at {@code at} ms, and sends it at once. */
    private void sample(double stampMs, double atMs) {
        long at = (long) (atMs * MS);
        assertTrue(link.enqueue(slot, 1, BYTES, Long.MAX_VALUE, Long.MAX_VALUE, at, EPOCH + (long) (stampMs * MS)));
        link.dequeue(at);
    }

    /**
     * 40 Hz, each sample 1 ms on the way but two: the one taken at 100 ms arrives 0.2 ms after it,
     * so its arrival opens the period (at 100.2 ms); the one taken at 200 ms arrives 0.1 ms after
     * it, before the period ends (at 200.2 ms): five arrivals in a period of a 40 Hz source.
     */
    private static final double[][] JITTERED = {{0, 1}, {25, 26}, {50, 51}, {75, 76}, {100, 100.2}, {125, 126},
        {150, 151}, {175, 176}, {200, 200.1}};

    @Test
    void aSampleJitterCarriedIntoThePeriodIsNotAStepOfDemand() {
        for (double[] s : JITTERED) {
            sample(s[0], s[1]);
        }
        link.maybeTick((long) (200.3 * MS));
        assertEquals(40 * WIRE, link.demand(slot), 40 * WIRE * 0.01, "40 Hz, not the 50 Hz the arrivals count");
    }

    @Test
    void withoutSourceTimesTheArrivalsAloneCount() {
        for (double[] s : JITTERED) {
            long at = (long) (s[1] * MS);
            link.enqueue(slot, 1, BYTES, Long.MAX_VALUE, Long.MAX_VALUE, at);
            link.dequeue(at);
        }
        link.maybeTick((long) (200.3 * MS));
        assertEquals(50 * WIRE, link.demand(slot), 50 * WIRE * 0.01, "the jittered edge counts as a step");
    }

    @Test
    void aGenuineStepCountsWithinThePeriod() {
        for (double t = 0; t < 100; t += 25) {
            sample(t, t + 1);
        }
        link.maybeTick((long) (100.5 * MS));
        for (double t = 100; t < 200; t += 20) { // 50 Hz from 100 ms
            sample(t, t + 1);
        }
        link.maybeTick((long) (200.5 * MS));
        assertEquals(50 * WIRE, link.demand(slot), 50 * WIRE * 0.01);
    }

    @Test
    void timestampsCloserThanTheArrivalsDoNotRaiseTheEstimate() {
        // 20 Hz arrivals stamped 1 ms apart: a source claiming 1,000 Hz is estimated at what arrived.
        sample(0, 1);
        sample(1, 51);
        link.maybeTick((long) (100.5 * MS));
        assertTrue(link.demand(slot) <= 20 * WIRE * 1.01, "at most the arrivals' 20 Hz: " + link.demand(slot) / WIRE);
        assertTrue(link.demand(slot) >= 19 * WIRE, "and what arrived: " + link.demand(slot) / WIRE);
    }

    @Test
    void aSourceClockThatSteppedOrABacklogOfOldSamplesCountsByItsArrivals() {
        for (double t = 0; t < 100; t += 25) {
            sample(t, t + 1);
        }
        link.maybeTick((long) (100.5 * MS));
        // 40 Hz arrivals whose stamps jump a second ahead mid-period (an NTP step at the source):
        // read by their stamps they would be 3 samples a second; they are 40 a second on the link.
        sample(100, 101);
        sample(125, 126);
        sample(1150, 151);
        sample(1175, 176);
        link.maybeTick((long) (200.5 * MS));
        assertEquals(40 * WIRE, link.demand(slot), 40 * WIRE * 0.01);
    }
}
