package org.gridstat.gateway.egress;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.time.ManualClock;
import org.gridstat.gateway.egress.FrameAligner.Offer;
import org.gridstat.gateway.egress.FrameAligner.Release;
import org.junit.jupiter.api.Test;

class FrameAlignerTest {
    private static final long MS = 1_000_000L;
    private static final long WINDOW = 100 * MS;
    private static final long SOC = 1_700_000_000L;

    private final ManualClock clock = new ManualClock(5_000 * MS);
    private final List<String> released = new ArrayList<>();
    private final FrameAligner.ReleaseSink sink = this::record;

    /** 3 slots of 4-byte samples, 8 pending at most, 2 s horizon, resynchronised after 3 s of refusals. */
    private final FrameAligner aligner = new FrameAligner(new int[] {4, 4, 4}, WINDOW, 8, 2, 3_000 * MS);

    /** The n-th frame of a second at 30 frames/s under TIME_BASE 1,000,000. */
    private static long key(long soc, int n) {
        return TimeKey.of(soc, n * 33_333, 1_000_000, 1_000_000);
    }

    private static long key(int n) {
        return key(SOC, n);
    }

    /** "frame:cause:slot bytes", a dash for an absent slot. */
    private void record(AlignedFrame f) {
        StringBuilder s = new StringBuilder(TimeKey.soc(f.timeKey()) - SOC + "." + TimeKey.fraction(f.timeKey()) / 33_333 + ":" + f.cause());
        for (int slot = 0; slot < f.slotCount(); slot++) {
            ByteBuffer b = f.sample(slot);
            assertEquals(b != null, f.present(slot));
            s.append(':').append(b == null ? "-" : b.getInt(0) + "/" + b.limit());
        }
        released.add(s.toString());
    }

    private Offer offer(int slot, long key, int value) {
        return aligner.offer(slot, key, ByteBuffer.allocate(8).putInt(2, value), 2, 4, clock.nanoTime(), sink);
    }

    @Test
    void aTimestampIsReleasedAtOnceWhenEverySlotIsIn() {
        for (int n = 0; n < 3; n++) {
            assertEquals(Offer.ACCEPTED, offer(2, key(n), 20 + n));
            assertEquals(Offer.ACCEPTED, offer(0, key(n), n));
            assertEquals(n, released.size());
            assertEquals(Offer.ACCEPTED, offer(1, key(n), 10 + n));
            clock.advance(33 * MS);
        }
        assertEquals(List.of("0.0:COMPLETE:0/4:10/4:20/4", "0.1:COMPLETE:1/4:11/4:21/4", "0.2:COMPLETE:2/4:12/4:22/4"), released);
        assertEquals(3, aligner.count(Release.COMPLETE));
        assertEquals(9, aligner.count(Offer.ACCEPTED));
        assertEquals(0, aligner.pending());
        assertEquals(Long.MAX_VALUE, aligner.nextDeadline());
    }

    @Test
    void aTimestampMissingASlotIsReleasedWhenItsWindowEndsWithTheSlotAbsent() {
        long start = clock.nanoTime();
        offer(0, key(0), 1);
        assertEquals(start + 3_000 * MS, aligner.nextDeadline(), "one slot alone waits until the others fall silent");
        clock.advance(30 * MS);
        offer(1, key(0), 2);
        assertEquals(start + 30 * MS + WINDOW, aligner.nextDeadline(), "the window runs from the second sample");
        clock.advance(WINDOW - MS);
        aligner.poll(clock.nanoTime(), sink);
        assertEquals(List.of(), released);
        clock.advance(MS);
        aligner.poll(clock.nanoTime(), sink);
        assertEquals(List.of("0.0:WINDOW_EXPIRED:1/4:2/4:-"), released);
        assertEquals(1, aligner.missing(2));
        assertEquals(0, aligner.missing(0));

        assertEquals(Offer.LATE, offer(2, key(0), 3), "its timestamp is out");
        assertEquals(1, aligner.count(Offer.LATE));
        assertEquals(1, released.size());
    }

    @Test
    void aSampleOlderThanTheNewestReleasedIsLateAndNeverReordersTheOutput() {
        for (int slot = 0; slot < 3; slot++) {
            offer(slot, key(5), slot);
        }
        assertEquals(Offer.LATE, offer(0, key(4), 9));
        assertEquals(Offer.LATE, offer(1, key(SOC - 1, 29), 9));
        assertEquals(Offer.ACCEPTED, offer(0, key(6), 9));
        assertEquals(2, aligner.count(Offer.LATE));
        assertEquals(1, released.size());
        assertEquals(1, aligner.pending());
    }

    @Test
    void aDuplicateIsCountedAndTheFirstSampleKept() {
        offer(0, key(0), 1);
        assertEquals(Offer.DUPLICATE, offer(0, key(0), 2));
        offer(1, key(0), 3);
        offer(2, key(0), 4);
        assertEquals(List.of("0.0:COMPLETE:1/4:3/4:4/4"), released);
        assertEquals(1, aligner.count(Offer.DUPLICATE));
    }

    @Test
    void timestampsArrivingOutOfOrderAreReleasedInIncreasingOrder() {
        offer(0, key(3), 30);
        offer(0, key(1), 10);
        offer(0, key(2), 20);
        for (int slot = 1; slot < 3; slot++) {
            offer(slot, key(3), 30 + slot);
            offer(slot, key(2), 20 + slot);
        }
        assertEquals(List.of(), released, "complete newer timestamps wait for the older one");
        offer(2, key(1), 12);
        offer(1, key(1), 11);
        assertEquals(List.of("0.1:COMPLETE:10/4:11/4:12/4", "0.2:COMPLETE:20/4:21/4:22/4", "0.3:COMPLETE:30/4:31/4:32/4"), released);
    }

    @Test
    void aCompleteTimestampWaitsForAnOlderIncompleteOneOnlyUntilItsWindowEnds() {
        offer(0, key(1), 10);
        clock.advance(10 * MS);
        for (int slot = 0; slot < 3; slot++) {
            offer(slot, key(2), 20 + slot);
        }
        assertEquals(List.of(), released);
        clock.advance(WINDOW - MS);
        aligner.poll(clock.nanoTime(), sink);
        assertEquals(List.of(), released, "reached when the others sent a later timestamp");
        clock.advance(MS);
        aligner.poll(clock.nanoTime(), sink);
        assertEquals(List.of("0.1:WINDOW_EXPIRED:10/4:-:-", "0.2:COMPLETE:20/4:21/4:22/4"), released);
        assertEquals(1, aligner.missing(1));
        assertEquals(1, aligner.missing(2));
    }

    @Test
    void aNewTimestampBeyondMaxPendingReleasesTheOldestEarly() {
        for (int n = 0; n < 8; n++) {
            offer(n % 3, key(n + 1), n);
        }
        assertEquals(8, aligner.pending());
        assertEquals(Offer.ACCEPTED, offer(0, key(9), 99));
        assertEquals(List.of("0.1:EVICTED:0/4:-:-"), released);
        assertEquals(1, aligner.count(Release.EVICTED));
        assertEquals(8, aligner.pending());
        assertEquals(Offer.ACCEPTED, offer(2, key(5), 55), "a timestamp already pending takes no room");
        assertEquals(Offer.LATE, offer(1, key(1) + 1, 0), "older than the oldest pending when full: late once it is evicted");
        assertEquals(List.of("0.1:EVICTED:0/4:-:-", "0.2:EVICTED:-:1/4:-"), released);
        assertEquals(7, aligner.pending());
    }

    @Test
    void aFarFutureTimestampFromOneSlotDoesNotHoldTheOthersBeyondTheWindow() {
        for (int n = 0; n < 3; n++) {
            offer(0, key(n), n);
            offer(1, key(n), 10 + n);
            offer(2, key(n), 20 + n);
        }
        assertEquals(Offer.FAR_AHEAD, offer(2, key(SOC + 3600, 3), 99));
        assertEquals(Offer.FAR_AHEAD, offer(2, key(SOC + 3, 3), 99), "more than 2 s ahead");
        assertEquals(Offer.ACCEPTED, offer(2, key(SOC + 2, 3), 23), "2 s ahead is within the horizon");
        offer(0, key(3), 3);
        offer(1, key(3), 13);
        clock.advance(WINDOW);
        aligner.poll(clock.nanoTime(), sink);
        assertEquals("0.3:WINDOW_EXPIRED:3/4:13/4:-", released.get(3));
        assertEquals(2, aligner.count(Offer.FAR_AHEAD));
        assertEquals(1, aligner.pending(), "the 2 s ahead timestamp waits for the others to reach it");
        assertEquals(clock.nanoTime() - WINDOW + 3_000 * MS, aligner.nextDeadline(), "or for them to fall silent");
    }

    @Test
    void aSlotWhoseClockIsAheadWithinTheHorizonNeitherStallsNorJumpsTheOutput() {
        FrameAligner roomy = new FrameAligner(new int[] {4, 4, 4}, WINDOW, 64, 2, 3_000 * MS);
        for (int n = 0; n < 300; n++) {
            long k = key(SOC + n / 30, n % 30);
            long ahead = key(SOC + (n + 45) / 30, (n + 45) % 30);
            assertEquals(Offer.ACCEPTED, roomy.offer(2, ahead, ByteBuffer.allocate(4).putInt(0, 2000 + n + 45), 0, 4, clock.nanoTime(), sink));
            assertEquals(Offer.ACCEPTED, roomy.offer(0, k, ByteBuffer.allocate(4).putInt(0, n), 0, 4, clock.nanoTime(), sink));
            clock.advance(20 * MS);
            assertEquals(Offer.ACCEPTED, roomy.offer(1, k, ByteBuffer.allocate(4).putInt(0, 1000 + n), 0, 4, clock.nanoTime(), sink));
            clock.advance(13 * MS);
        }
        assertEquals(300, released.size());
        for (int n = 0; n < 300; n++) {
            String slot2 = n < 45 ? "-" : (2000 + n) + "/4";
            assertTrue(released.get(n).startsWith(n / 30 + "." + n % 30 + ":"), released.get(n));
            assertTrue(released.get(n).endsWith(":" + n + "/4:" + (1000 + n) + "/4:" + slot2), released.get(n));
        }
        assertEquals(255, roomy.count(Release.COMPLETE));
        assertEquals(0, roomy.count(Release.EVICTED));
        assertEquals(0, roomy.count(Offer.LATE));
        assertEquals(45, roomy.pending(), "the fast slot's last 1.5 s wait for the others");
    }

    @Test
    void aWrongClockAtStartPutsNoFrameOutAndHoldsNothing() {
        offer(2, key(SOC + 3600, 0), 99);
        clock.advance(5 * MS);
        offer(0, key(0), 0);
        offer(1, key(0), 10);
        offer(2, key(SOC + 3600, 1), 99);
        clock.advance(WINDOW);
        aligner.poll(clock.nanoTime(), sink);
        assertEquals(List.of("0.0:WINDOW_EXPIRED:0/4:10/4:-"), released);
        assertEquals(2, aligner.droppedFarAhead());
        assertEquals(0, aligner.pending());
        assertEquals(Offer.FAR_AHEAD, offer(2, key(SOC + 3600, 2), 99));
    }

    @Test
    void whenEverySourceMovesAheadTheAlignerResynchronisesAfterRefusingForResyncNanos() {
        for (int slot = 0; slot < 3; slot++) {
            offer(slot, key(0), slot);
        }
        clock.advance(60_000 * MS);
        long later = SOC + 60;
        assertEquals(Offer.LATE, offer(0, key(SOC - 1, 29), 1), "a lone straggler after a quiet minute is still late");
        assertEquals(Offer.FAR_AHEAD, offer(0, key(later, 0), 1));
        for (int n = 1; n < 30; n++) {
            clock.advance(100 * MS);
            assertEquals(Offer.FAR_AHEAD, offer(n % 3, key(later, n), 1), "refused for less than 3 s");
        }
        clock.advance(100 * MS);
        assertEquals(Offer.ACCEPTED, offer(0, key(later + 1, 0), 1));
        assertEquals(1, aligner.resyncs());
        offer(1, key(later + 1, 0), 2);
        offer(2, key(later + 1, 0), 3);
        assertEquals("61.0:COMPLETE:1/4:2/4:3/4", released.get(1));
    }

    @Test
    void aSampleLargerThanItsSlotIsRefused() {
        assertEquals(Offer.TOO_LARGE, aligner.offer(0, key(0), ByteBuffer.allocate(5), 0, 5, clock.nanoTime(), sink));
        assertEquals(1, aligner.count(Offer.TOO_LARGE));
        assertEquals(0, aligner.pending());
        FrameAligner sized = new FrameAligner(new int[] {2, 6}, WINDOW, 2, 2, 0);
        assertEquals(Offer.ACCEPTED, sized.offer(1, key(0), ByteBuffer.allocate(6), 0, 6, clock.nanoTime(), sink));
        assertEquals(Offer.TOO_LARGE, sized.offer(0, key(0), ByteBuffer.allocate(6), 0, 3, clock.nanoTime(), sink));
    }

    @Test
    void buffersAreRecycledAcrossManyTimestampsWithoutMixingSamples() {
        for (int n = 0; n < 1_000; n++) {
            long k = key(SOC + n / 30, n % 30);
            offer(1, k, 1000 + n);
            offer(0, k, n);
            if (n % 7 != 0) {
                offer(2, k, 2000 + n);
            }
            clock.advance(33 * MS);
        }
        aligner.poll(clock.nanoTime() + WINDOW, sink);
        assertEquals(1_000, released.size());
        for (int n = 0; n < 1_000; n++) {
            String slot2 = n % 7 == 0 ? "-" : (2000 + n) + "/4";
            assertTrue(released.get(n).endsWith(":" + n + "/4:" + (1000 + n) + "/4:" + slot2), released.get(n));
        }
        assertEquals(143, aligner.missing(2));
    }
}
