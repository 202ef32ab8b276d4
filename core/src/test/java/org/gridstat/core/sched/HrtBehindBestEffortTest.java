package org.gridstat.core.sched;

import static org.gridstat.core.sched.SimulatedLink.MS;
import static org.gridstat.core.sched.SimulatedLink.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.SimulatedLink.Departure;
import org.gridstat.core.wire.WireFormat;
import org.junit.jupiter.api.Test;

/**
 * What the pacer releases waits in a FIFO (socket, NIC, the wire), where EDF no longer helps. With
 * the wire modelled as a FIFO at link capacity after the scheduler, an HRT event that arrives
 * during a best-effort flood must leave the wire within its own transmission time, one maximum
 * frame's and one pacing tick's.
 */
class HrtBehindBestEffortTest {
    /** 2 Mbit/s: 4 us a byte. */
    private static final long CAPACITY = 250_000;
    private static final int FRAME = WireFormat.MAX_FRAME_LENGTH;
    private static final int SAMPLE = 260;
    private static final int INSTANTS = 500;

    /** The wire's time for a frame in a datagram of its own: the frame and its IP and UDP headers. */
    private static long transmission(int frameBytes) {
        return (frameBytes + WireFormat.DATAGRAM_OVERHEAD) * S / CAPACITY;
    }

    /** Own transmission (1.152 ms) + one maximum datagram (6 ms) + one tick (0.05 ms) = 7.202 ms. */
    private static final long BOUND = transmission(SAMPLE) + transmission(FRAME) + LinkSpec.DEFAULT_BURST_NANOS;

    @Test
    void anHrtEventArrivingDuringABestEffortFloodLeavesTheWireWithinItsBound() {
        LinkSpec spec = LinkSpec.withDefaultShares(CAPACITY);
        assertEquals(CAPACITY * LinkSpec.DEFAULT_BURST_NANOS / S + FRAME, spec.burst(), "12 B of tick + one frame");
        // With a bucket of 12 B, the wire holds at most 12 B + the datagram that overdrew it when the
        // HRT event arrives: 6.048 ms + its own 1.152 ms = 7.2 ms at worst.
        long worst = worstDelay(spec, 1);
        assertTrue(worst <= BOUND, "worst HRT completion " + worst + " ns after arrival, bound " + BOUND);
        assertTrue(worst > transmission(FRAME), "the flood did hold HRT back: " + worst);
    }

    @Test
    void withTheOldTenMillisecondBurstTheBoundFails() {
        // The old default, 10 ms of capacity + 1,600 B = 4,100 B: up to 4,100 B queue in the wire
        // ahead of the HRT event (as a bucket of 4,100 B + the overdrawing datagram, 5,600 B), so it
        // completes up to 17.55 ms (23.55 ms) after arrival, against the 7.202 ms bound.
        long oldBurst = Shaping.defaultBurst(CAPACITY);
        assertEquals(4_100, oldBurst);
        long worst = worstDelay(LinkSpec.of(CAPACITY, oldBurst, defaultShares(), LinkSpec.DEFAULT_CONTROL_BUFFER), 1);
        assertTrue(worst > BOUND + 10 * MS, "worst " + worst + " ns");
    }

    /**
     * The largest delay from arrival to the end of its transmission on the wire of HRT events
     * arriving at random instants (one in each 20 ms window) while best effort offers six times the
     * link in maximum frames.
     */
    private static long worstDelay(LinkSpec spec, long seed) {
        SimulatedLink sim = new SimulatedLink(spec, 4);
        int hrt = sim.flow(1, ServiceClass.HRT, 50_000, CAPACITY, 20);
        int be = sim.flow(2, ServiceClass.BE, 50_000, CAPACITY, 64);
        long window = 20 * MS;
        long end = INSTANTS * window;
        sim.periodic(be, 0, MS, end + window, FRAME, Long.MAX_VALUE);
        Random random = new Random(seed);
        for (int i = 0; i < INSTANTS; i++) {
            long at = i * window + random.nextLong(window);
            sim.at(at, hrt, i, at + 20 * MS, SAMPLE);
        }
        sim.run(end + window);

        long wireFree = 0;
        long worst = 0;
        int hrtSeen = 0;
        for (Departure d : sim.departures) {
            wireFree = Math.max(wireFree, d.at()) + transmission(d.event().bytes());
            if (d.event().flow() == hrt) {
                worst = Math.max(worst, wireFree - d.event().arrival());
                hrtSeen++;
            }
        }
        assertEquals(INSTANTS, hrtSeen, "every HRT event sent");
        assertTrue(sim.refused.size() > 5_000, "best effort flooded the link: " + sim.refused.size());
        return worst;
    }

    private static Map<ServiceClass, Shaping> defaultShares() {
        Map<ServiceClass, Shaping> m = new EnumMap<>(ServiceClass.class);
        m.put(ServiceClass.HRT, Shaping.of(CAPACITY / 2, CAPACITY));
        m.put(ServiceClass.LRT, Shaping.of(CAPACITY * 3 / 10, CAPACITY));
        m.put(ServiceClass.BE, Shaping.of(CAPACITY / 5, CAPACITY));
        return m;
    }
}
