package org.gridstat.core.egress;

import static org.gridstat.core.egress.AgentHarness.MS;
import static org.gridstat.core.egress.AgentHarness.S;
import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.egress.AgentHarness.Sent;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.core.wire.WireFormat;
import org.junit.jupiter.api.Test;

/** The data path's duty cycle, stepped by hand on a manual clock. */
class DataPathAgentTest {
    /** 260,000 B/s: one 260-byte event per millisecond. */
    private static final long CAPACITY = 260_000;
    /** The token bucket's depth. */
    private static final long BURST = 1_472;
    /** The link's burst: a full bucket plus the frame that overdraws it. */
    private static final long LINK_BURST = BURST + LinkSpec.MAX_FRAME_BYTES;

    /**
     * Departure times of {@code n} 260-byte events all queued at {@code start} on an exact token
     * bucket (rate {@code CAPACITY}, depth {@code BURST}, full at the start), sent as the pump
     * sends them: an event leaves as soon as the bucket is not in debt and its bytes are charged
     * when it leaves; the events that leave at one time are packed five to a 1,472-byte datagram,
     * and a datagram's framing (28 bytes of IP and UDP headers, and a batch's 12 bytes and 2 an
     * event) is charged when it closes, which is when the next event does not fit or the cycle ends.
     */
    private static List<Long> tokenBucket(long start, int n) {
        return tokenBucket(start, n, 5);
    }

    /** As {@link #tokenBucket(long, int)}, with at most {@code perDatagram} events packed together. */
    private static List<Long> tokenBucket(long start, int n, int perDatagram) {
        // Tokens in units of 1e-9 byte, as the bucket counts them: exact, no rounding.
        final long nano = 1_000_000_000L;
        List<Long> out = new ArrayList<>();
        long tokens = BURST * nano;
        long last = start;
        int packed = 0;
        for (int i = 0; i < n; i++) {
            long t = last;
            if (tokens < 0) {
                tokens -= framing(packed) * nano; // the cycle ended with this datagram open
                packed = 0;
                t = last + (-tokens - 1) / CAPACITY + 1;
                tokens = Math.min(BURST * nano, tokens + (t - last) * CAPACITY);
            }
            out.add(t);
            tokens -= 260 * nano;
            if (packed == perDatagram) {
                tokens -= framing(packed) * nano;
                packed = 0;
            }
            packed++;
            last = t;
        }
        return out;
    }

    /** What closing a datagram of {@code packed} events charges: IP and UDP headers, and a batch's header. */
    private static int framing(int packed) {
        return packed == 0 ? 0 : WireFormat.DATAGRAM_OVERHEAD + (packed > 1 ? 12 + 2 * packed : 0);
    }

    private static List<Long> times(List<Sent> sent, long origin) {
        return sent.stream().map(s -> s.at() - origin).toList();
    }

    @Test
    void aPacedLinkSendsAtTheTokenBucketsTimesWakingExactlyWhenNeeded() {
        AgentHarness h = new AgentHarness(AgentHarness.link(CAPACITY, LINK_BURST));
        h.install(1, 7, 0, ServiceClass.BE, 64);
        long start = h.clock.nanoTime();
        Object[] burst = new Object[2 * 20];
        for (int i = 0; i < 20; i++) {
            burst[2 * i] = 7L;
            burst[2 * i + 1] = "e" + i;
        }
        h.cycle(burst);
        assertEquals(6, h.links.get(0).sent.size(), "the burst's worth leaves in the first cycle");
        assertTrue(h.wakeups.requested > start, "and the agent asks to come back when the next may go");
        h.runUntil(start + 20 * MS);
        List<Long> expected = tokenBucket(0, 20);
        assertEquals(expected, times(h.links.get(0).sent, start));
        for (int i = 0; i < 20; i++) {
            assertEquals("e" + i, h.links.get(0).sent.get(i).event(), "in order");
        }
    }

    @Test
    void aWallClockStepBackNeitherStallsNorBurstsALink() {
        List<List<Long>> runs = new ArrayList<>();
        for (long step : new long[] {0, -S, +S}) {
            AgentHarness h = new AgentHarness(AgentHarness.link(CAPACITY, LINK_BURST));
            h.install(1, 7, 0, ServiceClass.BE, 64);
            long start = h.clock.nanoTime();
            for (int i = 0; i < 20; i++) {
                h.cycle(7L, "e" + i);
            }
            h.runUntil(start + 5 * MS);
            h.clock.stepWall(step); // NTP steps the host's clock mid-stream
            h.runUntil(start + 30 * MS);
            runs.add(times(h.links.get(0).sent, start));
        }
        assertEquals(20, runs.get(0).size());
        assertEquals(runs.get(0), runs.get(1), "a 1 s step back changes no departure");
        assertEquals(runs.get(0), runs.get(2), "nor does a 1 s step forward");
    }

    /** One duty cycle now whose input is one event with its own source time and end-to-end deadline (epoch). */
    private static int offer(AgentHarness h, String name, long sourceTime, long deadline) {
        h.agent.beginCycle();
        int queued = h.agent.forward(7L, sourceTime, deadline, name, 260);
        h.agent.doWork();
        return queued;
    }

    /**
     * The epoch clock steps an hour back or forward mid-stream while the monotonic clock runs on.
     * Twenty HRT events queued at once, each with an end-to-end deadline 12 ms after its source
     * time, leave at the token bucket's times to the nanosecond whatever the step: their expiry was
     * converted to the monotonic clock when they were queued, so the step neither expires them (an
     * hour forward) nor keeps them (an hour back). The last three cannot leave by 12 ms and are
     * dropped at the head, with or without the step. After the step, a publisher whose clock did not
     * step is an hour off the router's: its frames are refused as stale (router an hour ahead) or
     * ahead (router an hour behind); one that stepped with the router is on time, and its event
     * leaves at once on the idle link.
     */
    @Test
    void anHourStepOfTheWallClockNeitherStallsNorBurstsALinkNorMovesAQueuedExpiry() {
        long hour = 3_600 * S;
        for (long step : new long[] {0, -hour, +hour}) {
            String label = "wall clock stepped by " + step / S + " s: ";
            AgentHarness h = new AgentHarness(AgentHarness.link(CAPACITY, LINK_BURST));
            h.install(1, 7, 0, ServiceClass.HRT, 64);
            long start = h.clock.nanoTime();
            long epochStart = h.clock.nanos();
            h.agent.beginCycle();
            for (int i = 0; i < 20; i++) {
                assertEquals(1, h.agent.forward(7L, epochStart, epochStart + 12 * MS, "e" + i, 260));
            }
            h.agent.doWork();
            h.runUntil(start + 5 * MS);
            h.clock.stepWall(step); // NTP steps the host's clock an hour mid-stream
            h.runUntil(start + 30 * MS);

            List<Long> bucket = tokenBucket(0, 20);
            int inTime = (int) bucket.stream().filter(t -> t <= 12 * MS).count();
            assertEquals(17, inTime, "the bucket lets 17 leave by 12 ms, and the last ones after");
            assertEquals(bucket.subList(0, inTime), times(h.links.get(0).sent, start),
                    label + "the token bucket's departures");
            for (int i = 0; i < inTime; i++) {
                assertEquals("e" + i, h.links.get(0).sent.get(i).event(), label + "in order");
            }
            assertEquals(List.of("e17", "e18", "e19"), h.refs.released, label + "the three that could not leave by 12 ms");
            assertEquals(3, h.engine.statistics(0).flow(1).queue().deadlineMisses(), label + "counted as misses");

            // After the step: a publisher that did not step, and one that did.
            long unstepped = epochStart + 30 * MS;
            int offered = offer(h, "unstepped", unstepped, unstepped + 3 * MS);
            assertEquals(step == 0 ? 1 : step > 0 ? ForwardingEngine.SOURCE_TIME_STALE : ForwardingEngine.SOURCE_TIME_AHEAD,
                    offered, label + "a source clock an hour off the router's");
            if (step == 0) {
                h.runUntil(start + 31 * MS); // the same publisher as the other; it leaves, then the link is idle again
            }
            long before = h.links.get(0).sent.size();
            long at = h.clock.nanoTime();
            assertEquals(1, offer(h, "stepped", h.clock.nanos(), h.clock.nanos() + 3 * MS), label + "on time");
            assertEquals(before + 1, h.links.get(0).sent.size(), label + "sent in the cycle it came");
            Sent last = h.links.get(0).sent.get(h.links.get(0).sent.size() - 1);
            assertEquals(new Sent("stepped", at), last, label + "at once on the idle link");
            assertEquals(3, h.engine.statistics(0).flow(1).queue().deadlineMisses(), label + "no miss after the step");
        }
    }

    @Test
    void aLargeResyncIsAppliedSixtyFourCommandsACycleWhileForwardingGoesOn() {
        AgentHarness h = new AgentHarness(AgentHarness.link(1_000_000_000, 1_000_000));
        h.install(1, 7, 0, ServiceClass.HRT, 64);
        for (int i = 0; i < 1_000; i++) {
            assertTrue(h.engine.submit(FlowCommand.install(new FlowEntry(1, 1_000 + i, 0,
                    FlowSpec.of(100 + i, ServiceClass.BE, 1_000, 10_000), new long[0], 0, 0))));
        }
        int cycles = 0;
        long before = h.engine.counters().commandsApplied();
        while (h.engine.hasCommands()) {
            h.cycle(7L, "hrt" + cycles);
            cycles++;
            long applied = h.engine.counters().commandsApplied();
            assertTrue(applied - before <= 64, "at most 64 commands a cycle, got " + (applied - before));
            before = applied;
            assertEquals(cycles, h.links.get(0).sent.size(), "the event of each cycle left in that cycle");
            if (h.engine.hasCommands()) {
                assertEquals(h.clock.nanoTime(), h.wakeups.requested, "commands left: the agent asks to run again at once");
            }
        }
        assertEquals(16, cycles, "1,000 commands in cycles of 64");
        assertEquals(1_001, h.engine.flows().size());
    }

    @Test
    void aFullTransmitterPausesItsLinkUntilItDrains() {
        AgentHarness h = new AgentHarness(AgentHarness.link(1_000_000_000, 1_000_000));
        h.install(1, 7, 0, ServiceClass.BE, 64);
        AgentHarness.FakeTransmitter tx = h.links.get(0);
        tx.room = 1;
        Object[] eight = {7L, "a", 7L, "b", 7L, "c", 7L, "d", 7L, "e", 7L, "f", 7L, "g", 7L, "h"};
        h.cycle(eight);
        // The datagram that filled the socket was followed by the one event already taken for the
        // next: a socket's high-water mark is soft, and a dequeued event is never held back.
        assertEquals(List.of(List.of("a", "b", "c", "d", "e"), List.of("f")), tx.datagrams,
                "stopped when the socket buffer filled");
        h.cycle();
        assertEquals(6, tx.sent.size(), "a cycle while still full sends nothing");
        tx.room = 100;
        h.agent.linkWritable(0);
        h.cycle();
        assertEquals(List.of("a", "b", "c", "d", "e", "f", "g", "h"), tx.sent.stream().map(Sent::event).toList());
        assertEquals(List.of("g", "h"), tx.datagrams.get(2));
        assertEquals(List.of(), h.refs.released, "nothing dropped");
    }

    @Test
    void anIdleAgentWakesForItsEstimatorPeriodOnly() {
        AgentHarness h = new AgentHarness(AgentHarness.link(CAPACITY, LINK_BURST));
        long start = h.clock.nanoTime();
        h.cycle();
        assertEquals(start + S, h.wakeups.requested);
        h.runUntil(start + S);
        assertEquals(start + 2 * S, h.wakeups.requested, "the next period");
    }

    @Test
    void eachLinkIsPumpedWhenItsOwnTimeComes() {
        AgentHarness h = new AgentHarness(AgentHarness.link(CAPACITY, LINK_BURST), AgentHarness.link(CAPACITY * 2, LINK_BURST));
        h.install(1, 7, 0, ServiceClass.BE, 64);
        h.install(2, 7, 1, ServiceClass.BE, 64);
        long start = h.clock.nanoTime();
        for (int i = 0; i < 10; i++) {
            h.cycle(7L, "e" + i);
        }
        h.runUntil(start + 20 * MS);
        List<Long> slow = times(h.links.get(0).sent, start);
        List<Long> fast = times(h.links.get(1).sent, start);
        assertEquals(10, slow.size());
        assertEquals(10, fast.size());
        assertEquals(tokenBucket(0, 10, 1), slow, "each event came in a cycle of its own and left alone");
        assertTrue(fast.get(9) < slow.get(9), "the faster link finishes first: " + fast + " vs " + slow);
    }
}
