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

    @Test
    void aSubscriberAtThePublishersRateGetsEverySampleAndLateCopiesNone() {
        List<Long> samples = publish(60, T0, 2);
        RateFilter f = new RateFilter(new long[] {interval(60)}, interval(60));
        assertEquals(samples, filter(f, samples));
        assertFalse(f.accept(samples.get(5)), "an old copy arriving late is not forwarded again");
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
