package org.gridstat.core.filter;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class RateFilterTest {
    private static final long S = 1_000_000_000L;
    private static final long T0 = 1_790_000_000L * S; // a whole second, late 2026

    /** Samples of a publisher at {@code hz} on its grid, for {@code seconds}. */
    private static List<Long> publish(int hz, long from, int seconds) {
        SampleGrid g = SampleGrid.ofRate(hz);
        List<Long> out = new ArrayList<>();
        for (long t = g.floor(from); t < from + seconds * S; t = g.next(t)) {
            if (t >= from) {
                out.add(t);
            }
        }
        return out;
    }

    private static List<Long> filter(RateFilter f, List<Long> samples) {
        List<Long> out = new ArrayList<>();
        for (long t : samples) {
            if (f.accept(t)) {
                out.add(t);
            }
        }
        return out;
    }

    /**
     * The reference semantics, by brute force: for every grid point of every interval, the first
     * sample at or after the point less the tolerance.
     */
    private static Set<Long> reference(List<Long> samples, long tolerance, int... hz) {
        Set<Long> wanted = new TreeSet<>();
        for (int rate : hz) {
            SampleGrid g = SampleGrid.ofRate(rate);
            long first = samples.get(0);
            long last = samples.get(samples.size() - 1);
            for (long p = g.floor(first + tolerance); p <= last + tolerance; p = g.next(p)) {
                for (long t : samples) {
                    if (t >= p - tolerance) {
                        wanted.add(t);
                        break;
                    }
                }
            }
        }
        return wanted;
    }

    /** Compares two runs of samples, naming the first difference rather than printing thousands of stamps. */
    private static void assertSameSamples(List<Long> expected, List<Long> actual, String what) {
        int n = Math.min(expected.size(), actual.size());
        int i = 0;
        while (i < n && expected.get(i).equals(actual.get(i))) {
            i++;
        }
        if (i < n || expected.size() != actual.size()) {
            fail(what + ": expected " + expected.size() + " samples, got " + actual.size()
                    + "; first difference at #" + i
                    + (i < expected.size() ? " (expected " + expected.get(i) + ")" : "")
                    + (i < actual.size() ? " (got " + actual.get(i) + ")" : ""));
        }
    }

    private static long interval(int hz) {
        return SampleGrid.ofRate(hz).intervalNanos();
    }

    @Test
    void thirtyHertzOffSixtyGetsExactlyTheAlignedSamples() {
        List<Long> samples = publish(60, T0, 10);
        assertEquals(600, samples.size());
        List<Long> passed = filter(new RateFilter(new long[] {interval(30)}, interval(60)), samples);
        assertEquals(300, passed.size());
        SampleGrid thirty = SampleGrid.ofRate(30);
        for (long t : passed) {
            assertEquals(t, thirty.floor(t), "forwarded sample " + t + " lies on the 30 Hz grid");
        }
        assertEquals(reference(samples, interval(60) / 2, 30), new TreeSet<>(passed));
    }

    @Test
    void twoVariablesFilteredToTenHertzCarryTheSameTimestamps() {
        // Different publishing rates and start times; the same 10 Hz instants survive.
        List<Long> a = filter(new RateFilter(new long[] {interval(10)}, interval(60)), publish(60, T0, 5));
        List<Long> b = filter(new RateFilter(new long[] {interval(10)}, interval(30)), publish(30, T0 + 250_000_000L, 5));
        Set<Long> common = new TreeSet<>(a);
        common.retainAll(b);
        Set<Long> aInOverlap = new TreeSet<>();
        for (long t : a) {
            if (t >= T0 + 300_000_000L && t < T0 + 5 * S) {
                aInOverlap.add(t);
            }
        }
        Set<Long> bInOverlap = new TreeSet<>();
        for (long t : b) {
            if (t >= T0 + 300_000_000L && t < T0 + 5 * S) {
                bInOverlap.add(t);
            }
        }
        assertEquals(47, aInOverlap.size());
        assertEquals(aInOverlap, bInOverlap);
    }

    @Test
    void aLinkForSixtyAndTwentyFiveHertzCarriesWhatEitherNeedsAndNothingElse() {
        for (int publisher : new int[] {300, 120}) {
            List<Long> samples = publish(publisher, T0, 4);
            long tol = interval(publisher) / 2;
            List<Long> passed = filter(new RateFilter(new long[] {interval(60), interval(25)}, interval(publisher)), samples);
            Set<Long> expected = reference(samples, tol, 60, 25);
            assertEquals(expected, new LinkedHashSet<>(passed), publisher + " Hz publisher");
            assertEquals(passed.size(), new TreeSet<>(passed).size(), "no sample twice");
            if (publisher == 300) {
                // 60 and 25 Hz points coincide 5 times a second: 60 + 25 - 5 per second.
                assertEquals(4 * (60 + 25 - 5), passed.size());
            }
        }
    }

    @Test
    void jitteredTimestampsStillYieldOneSamplePerInterval() {
        Random random = new Random(42);
        long period = interval(60);
        List<Long> samples = new ArrayList<>();
        for (long t : publish(60, T0, 20)) {
            samples.add(t + (long) ((random.nextDouble() - 0.5) * 0.6 * period)); // up to ±30 % of a period
        }
        List<Long> passed = filter(new RateFilter(new long[] {interval(30)}, period), samples);
        assertEquals(600, passed.size(), "one per 30 Hz interval over 20 s");
        SampleGrid thirty = SampleGrid.ofRate(30);
        Set<Long> points = new TreeSet<>();
        for (long t : passed) {
            points.add(thirty.floor(t + period / 2));
        }
        assertEquals(600, points.size(), "each forwarded sample serves a different 30 Hz point");
    }

    /**
     * A jittery 60 Hz publisher: each sample stamped within ±40 % of a period of its grid point,
     * and one in {@code stallEvery} stamped 50-90 % of a period late (the publisher stalled before
     * it read its clock). Seeded, so every run sees the same stamps.
     */
    private static List<Long> jittery(int count, long seed, int stallEvery) {
        Random random = new Random(seed);
        SampleGrid g = SampleGrid.ofRate(60);
        long period = g.intervalNanos();
        List<Long> out = new ArrayList<>(count);
        long t = T0;
        for (int i = 0; i < count; i++) {
            double jitter = stallEvery > 0 && random.nextInt(stallEvery) == 0
                    ? 0.5 + 0.4 * random.nextDouble()
                    : (random.nextDouble() * 2 - 1) * 0.4;
            out.add(t + (long) (jitter * period));
            t = g.next(t);
        }
        return out;
    }

    @Test
    void aSubscriberAtThePublishersRateGetsEverySampleOfAJitteryPublisher() {
        // 330 s at 60 Hz; the stalled stamps once consumed the next grid point (5 of 19,800 lost).
        for (int stallEvery : new int[] {0, 4000}) {
            List<Long> samples = jittery(19_800, 7, stallEvery);
            RateFilter f = new RateFilter(new long[] {interval(60)}, interval(60));
            assertSameSamples(samples, filter(f, samples), "stalls: one in " + stallEvery);
        }
    }

    @Test
    void aLinkThatAlsoCarriesTheFullRatePassesEverything() {
        List<Long> samples = jittery(1_200, 3, 100);
        // 1 ns apart: the publisher's interval rounded down, the subscriber's to nearest.
        RateFilter sixty = new RateFilter(new long[] {interval(10), 16_666_667L}, 16_666_666L);
        assertSameSamples(samples, filter(sixty, samples), "60 Hz");
        RateFilter faster = new RateFilter(new long[] {interval(120), interval(5)}, interval(60));
        assertSameSamples(samples, filter(faster, samples), "120 Hz");
    }

    /**
     * Stamps within half a period of their point are told apart exactly. A stamp further off looks
     * like an early one for the next point: nothing that sees only stamps can tell which point it
     * was taken for, which is why a link at the publisher's rate thins nothing.
     */
    @Test
    void aJitteryPublisherThinnedToThirtyAndTwentyHertzServesEachPointOnceWithItsOwnSample() {
        List<Long> samples = jittery(19_800, 11, 0);
        SampleGrid sixty = SampleGrid.ofRate(60);
        long period = interval(60);
        int[][] links = {{30}, {20}, {30, 20}};
        int[] points = {9_900, 6_600, 13_200}; // 330 s: 30/s, 20/s, 30 + 20 - 10 coinciding per second
        for (int l = 0; l < links.length; l++) {
            long[] intervals = new long[links[l].length];
            for (int i = 0; i < intervals.length; i++) {
                intervals[i] = interval(links[l][i]);
            }
            List<Long> passed = filter(new RateFilter(intervals, period), samples);
            // Exactly the samples taken for a point of the link's grids: none skipped, none twice.
            List<Long> due = new ArrayList<>();
            long nominal = T0;
            for (long t : samples) {
                for (int hz : links[l]) {
                    if (SampleGrid.ofRate(hz).floor(nominal) == nominal) {
                        due.add(t);
                        break;
                    }
                }
                nominal = sixty.next(nominal);
            }
            assertEquals(points[l], due.size(), "grid points covered");
            assertSameSamples(due, passed, "links " + java.util.Arrays.toString(links[l]));
        }
    }

    @Test
    void aFrameStampedAheadDoesNotBlockTheOnTimeSamplesAfterIt() {
        for (long ahead : new long[] {4 * S, 3600 * S}) {
            RateFilter f = new RateFilter(new long[] {interval(30)}, interval(60));
            assertTrue(f.accept(T0 + ahead), "the router trusted it, so it goes");
            List<Long> onTime = publish(60, T0, 5);
            List<Long> due = new ArrayList<>();
            for (int i = 0; i < onTime.size(); i += 2) {
                due.add(onTime.get(i));
            }
            assertEquals(150, due.size());
            assertSameSamples(due, filter(f, onTime), "after a frame " + ahead / S + " s ahead");
        }
    }

    @Test
    void aPublisherWhoseClockStepsBackPassesAgainWithinOneInterval() {
        RateFilter f = new RateFilter(new long[] {interval(30)}, interval(60));
        assertEquals(60, filter(f, publish(60, T0, 2)).size());
        // The clock steps back 1 s: the next sample is stamped T0 + 1 s, and on from there.
        List<Long> after = publish(60, T0 + S, 2);
        List<Long> passed = filter(f, after);
        assertEquals(after.get(0), passed.get(0), "the first sample after the step serves its point");
        assertEquals(reference(after, interval(60) / 2, 30), new TreeSet<>(passed));
        assertEquals(60, passed.size());
    }

    @Test
    void lateCopiesWithinOneIntervalServeNothingAndAnOlderOneCostsOnlyItself() {
        List<Long> samples = publish(60, T0, 1);
        RateFilter f = new RateFilter(new long[] {interval(30)}, interval(60));
        List<Long> upToTen = samples.subList(0, 11); // sample 10 is the 30 Hz point at T0 + 166.7 ms
        assertEquals(List.of(upToTen.get(0), upToTen.get(2), upToTen.get(4), upToTen.get(6), upToTen.get(8),
                upToTen.get(10)), filter(f, upToTen));
        assertFalse(f.accept(samples.get(10)), "a copy of the last forwarded sample");
        assertFalse(f.accept(samples.get(9)), "a copy of the sample before it");
        assertFalse(f.accept(samples.get(8)), "a copy of the point one interval back");
        // Two intervals back is what a clock step back looks like: the copy is forwarded ...
        assertTrue(f.accept(samples.get(6)));
        // ... but the stream it strayed from keeps its points: none served twice, none skipped.
        assertFalse(f.accept(samples.get(11)), "still the 30 Hz point of sample 10");
        assertTrue(f.accept(samples.get(12)));
        assertFalse(f.accept(samples.get(13)));
        assertTrue(f.accept(samples.get(14)));
    }

    @Test
    void extremeTimestampsNeitherThrowNorPoisonTheState() {
        for (long extreme : new long[] {Long.MAX_VALUE - 1, Long.MIN_VALUE + 1, Long.MAX_VALUE, Long.MIN_VALUE}) {
            for (long[] intervals : new long[][] {{interval(30)}, {interval(25), 3 * S, S}}) {
                RateFilter f = new RateFilter(intervals, interval(60));
                List<Long> before = publish(60, T0, 1);
                List<Long> expected = filter(new RateFilter(intervals, interval(60)), publish(60, T0, 3));
                List<Long> passed = filter(f, before);
                f.accept(extreme);
                passed.addAll(filter(f, publish(60, T0 + S, 2)));
                assertSameSamples(expected, passed, "around a sample at " + extreme);
            }
        }
    }

    @Test
    void aMissingSampleIsReplacedByTheNextOne() {
        List<Long> samples = new ArrayList<>(publish(60, T0, 1));
        samples.remove(2); // the 30 Hz point at T0 + 33.3 ms is lost upstream
        List<Long> passed = filter(new RateFilter(new long[] {interval(30)}, interval(60)), samples);
        assertEquals(samples.get(2), passed.get(1), "the first sample after the lost one serves its point");
        assertEquals(samples.get(3), passed.get(2));
    }
}
