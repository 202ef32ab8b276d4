package org.gridstat.gateway.shaping;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.time.ManualClock;
import org.gridstat.core.wire.WireFormat;
import org.junit.jupiter.api.Test;

/** The source shaper stepped on a manual clock: who leaves when, and what is dropped whole. */
class SourceShaperTest {
    private static final long S = 1_000_000_000L;
    private static final int PAYLOAD = 152;
    private static final int FRAME = WireFormat.HEADER_LENGTH + PAYLOAD; // 200 bytes
    private static final int WIRE = FRAME + 8 + 20; // one packet: UDP and IP headers
    private static final long RATE = 30L * WIRE; // the reservation of 30 frames a second: 6,840 B/s

    private final ManualClock clock = new ManualClock(1_000 * S);
    private final byte[] sample = new byte[WireFormat.MAX_PAYLOAD_LENGTH];

    private record Departure(long at, long sourceTime) {
    }

    @Test
    void aFlowAtItsReservationLeavesAsItComes() {
        SourceShaper shaper = new SourceShaper(RATE, FRAME, ShapingSettings.DEFAULT, clock.nanoTime());
        for (int i = 0; i < 300; i++) {
            assertEquals(SourceShaper.Outcome.SEND, shaper.offer(sample, PAYLOAD, i, clock.nanoTime()), "sample " + i);
            clock.advance(S / 30 + 1);
        }
        assertEquals(300, shaper.sent());
        assertEquals(0, shaper.delayed());
    }

    @Test
    void aBurstLeavesPacedAtTheReservationToTheNanosecondInOrder() {
        SourceShaper shaper = new SourceShaper(RATE, FRAME, ShapingSettings.DEFAULT, clock.nanoTime());
        long t0 = clock.nanoTime();
        List<SourceShaper.Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            outcomes.add(shaper.offer(sample, PAYLOAD, i, t0));
        }
        // a full bucket of two frames, and a third while it is not yet in debt
        assertEquals(List.of(SourceShaper.Outcome.SEND, SourceShaper.Outcome.SEND, SourceShaper.Outcome.SEND),
                outcomes.subList(0, 3));
        assertTrue(outcomes.subList(3, 10).stream().allMatch(o -> o == SourceShaper.Outcome.QUEUED));
        List<Departure> departures = new ArrayList<>();
        while (shaper.nextDeparture() != Long.MAX_VALUE) {
            long at = shaper.nextDeparture();
            clock.set(Math.max(clock.nanos(), at));
            shaper.drain(clock.nanoTime(), (p, n, time) -> departures.add(new Departure(clock.nanoTime(), time)));
        }
        assertEquals(7, departures.size());
        for (int k = 1; k <= 7; k++) {
            // the k-th waiting sample leaves when k frames' worth of tokens have come: ceil(k × WIRE / RATE)
            long expected = t0 + (k * WIRE * S + RATE - 1) / RATE;
            assertEquals(expected, departures.get(k - 1).at(), "departure " + k);
            assertEquals(2 + k, departures.get(k - 1).sourceTime(), "in the order offered");
        }
        assertEquals(0, shaper.waiting());
    }

    @Test
    void aSampleOfSeveralPacketsIsQueuedWholeOrDroppedWhole() {
        ShapingSettings small = new ShapingSettings(true, 1, 4, 576);
        int bigPayload = 1_200; // 1,248-byte event: 1,256 bytes of UDP over 556-byte packets: 3 packets
        assertEquals(3, SourceShaper.packets(WireFormat.HEADER_LENGTH + bigPayload, 576));
        SourceShaper shaper = new SourceShaper(1_000, WireFormat.HEADER_LENGTH + bigPayload, small, clock.nanoTime());
        long now = clock.nanoTime();
        assertEquals(SourceShaper.Outcome.SEND, shaper.offer(sample, bigPayload, 1, now), "the bucket's burst");
        assertEquals(SourceShaper.Outcome.SEND, shaper.offer(sample, bigPayload, 2, now), "one more while not in debt");
        assertEquals(SourceShaper.Outcome.QUEUED, shaper.offer(sample, bigPayload, 3, now), "3 of 4 packets");
        assertEquals(SourceShaper.Outcome.DROPPED, shaper.offer(sample, bigPayload, 4, now), "1 packet of room for 3");
        assertEquals(SourceShaper.Outcome.QUEUED, shaper.offer(sample, 100, 5, now), "a one-packet sample fits");
        assertEquals(SourceShaper.Outcome.DROPPED, shaper.offer(sample, 100, 6, now), "full");
        assertEquals(2, shaper.dropped());
        List<Long> order = new ArrayList<>();
        while (shaper.nextDeparture() != Long.MAX_VALUE) {
            clock.set(Math.max(clock.nanos(), shaper.nextDeparture()));
            shaper.drain(clock.nanoTime(), (p, n, time) -> order.add(time));
        }
        assertEquals(List.of(3L, 5L), order, "only whole samples leave, in order");
    }

    @Test
    void whatLeavesIsTheSampleOffered() {
        SourceShaper shaper = new SourceShaper(RATE, FRAME, new ShapingSettings(true, 1, 8, 1500), clock.nanoTime());
        shaper.offer(sample, PAYLOAD, 0, clock.nanoTime());
        shaper.offer(sample, PAYLOAD, 1, clock.nanoTime());
        byte[] mine = new byte[PAYLOAD];
        for (int i = 0; i < PAYLOAD; i++) {
            mine[i] = (byte) (i * 7);
        }
        assertEquals(SourceShaper.Outcome.QUEUED, shaper.offer(mine, PAYLOAD, 2, clock.nanoTime()));
        mine[0] = 99; // the caller reuses its buffer
        List<byte[]> out = new ArrayList<>();
        clock.advance(S);
        shaper.drain(clock.nanoTime(), (p, n, time) -> {
            if (time == 2) {
                out.add(java.util.Arrays.copyOf(p, n));
            }
        });
        assertEquals(1, out.size());
        assertEquals(0, out.get(0)[0], "copied when queued");
        assertEquals((byte) (5 * 7), out.get(0)[5]);
    }
}
