package org.gridstat.gateway.aggregate;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.List;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.gateway.aggregate.RegionAggregator.Meter;
import org.junit.jupiter.api.Test;

class RegionAggregatorTest {
    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    /** On the UTC grid: a whole second. */
    private static final long T0 = 1_800_000_000L * S;
    private static final int ALL = ValueKind.KNOWN_MASK;

    private final RecordingSink sink = new RecordingSink();
    private final AggregatorSettings settings = AggregatorSettings.defaults().withGrace(Duration.ofMillis(500))
            .withOpenIntervals(4);
    private final RegionAggregator agg = new RegionAggregator(settings, sink, T0 + 500 * MS); // the first interval open is T0's

    private Meter meter(long id, int region) {
        RegionAggregator.Registration r = agg.register(id, region, T0 - S);
        assertNull(r.refusal());
        return r.meter();
    }

    private OfferOutcome offer(Meter m, long t, int quality, float p, float q, float v) {
        return agg.offer(m, t, quality, ALL, new float[] {p, q, v});
    }

    @Test
    void foldsEachRegionsIntervalAndEmitsItAfterTheGrace() {
        Meter a = meter(10, 1);
        Meter b = meter(11, 1);
        Meter c = meter(12, 1);
        Meter d = meter(20, 2);
        assertEquals(OfferOutcome.ACCEPTED, offer(a, T0 + 100 * MS, 0, 100f, 10f, 230f));
        assertEquals(OfferOutcome.ACCEPTED, offer(b, T0 + 999 * MS, 1, -50f, 20f, 228f));
        assertEquals(OfferOutcome.ACCEPTED, agg.offer(d, T0, 0, ValueKind.VOLTAGE.bit(), new float[] {1e9f, 1e9f, 400f}));
        assertEquals(0, agg.poll(T0 + 1_499 * MS), "not before the end plus the grace");
        assertEquals(T0 + 1_500 * MS, agg.nextDeadline());
        assertEquals(1, agg.poll(T0 + 1_500 * MS));

        List<RecordingSink.Emitted> out = sink.snapshot();
        assertEquals(List.of(1, 2), out.stream().map(RecordingSink.Emitted::regionId).toList(), "regions in id order");
        RecordingSink.Emitted one = out.get(0);
        assertEquals(T0, one.startNanos());
        assertEquals(AggregatePayload.LISTS_AT + 4, one.payload().length);
        AggregatePayload v = one.view();
        assertEquals(1, v.regionId());
        assertEquals(T0, v.intervalStartNanos());
        assertEquals(1000, v.intervalMillis());
        assertEquals(3, v.expected());
        assertEquals(2, v.reporting());
        assertEquals(1, v.missing());
        assertEquals(1, v.listed());
        assertEquals(12, v.listedMissing(0));
        assertEquals(1, v.flagged());
        assertEquals(0, v.flags());
        assertEquals(2, v.count(ValueKind.ACTIVE_POWER));
        assertEquals(50.0, v.sum(ValueKind.ACTIVE_POWER));
        assertEquals(25.0, v.mean(ValueKind.ACTIVE_POWER));
        assertEquals(-50f, v.min(ValueKind.ACTIVE_POWER));
        assertEquals(100f, v.max(ValueKind.ACTIVE_POWER));
        assertEquals(458.0, v.sum(ValueKind.VOLTAGE));

        AggregatePayload two = out.get(1).view();
        assertEquals(1, two.reporting());
        assertEquals(0, two.missing());
        assertEquals(0, two.count(ValueKind.ACTIVE_POWER), "a kind no reading carried");
        assertEquals(0.0, two.sum(ValueKind.ACTIVE_POWER));
        assertTrue(Double.isNaN(two.mean(ValueKind.ACTIVE_POWER)));
        assertTrue(Float.isNaN(two.min(ValueKind.ACTIVE_POWER)));
        assertEquals(400f, two.max(ValueKind.VOLTAGE));

        // the bytes themselves, at their documented offsets
        java.nio.ByteBuffer raw = java.nio.ByteBuffer.wrap(one.payload());
        assertEquals(3, raw.get(0));
        assertEquals(1, raw.get(1));
        assertEquals(1, raw.getShort(2));
        assertEquals(T0, raw.getLong(4));
        assertEquals(1000, raw.getInt(12));
        assertEquals(3, raw.getInt(16));
        assertEquals(2, raw.getInt(20));
        assertEquals(1, raw.getInt(24));
        assertEquals(1, raw.getInt(28));
        assertEquals(3, raw.get(32));
        assertEquals(0, raw.get(33));
        assertEquals(1, raw.getShort(34));
        assertEquals(2, raw.getInt(36));
        assertEquals(50.0, raw.getDouble(40));
        assertEquals(25.0, raw.getDouble(48));
        assertEquals(-50f, raw.getFloat(56));
        assertEquals(100f, raw.getFloat(60));
        assertEquals(12, raw.getInt(120));
    }

    @Test
    void lateAheadAndRepeatedReadingsAreCountedAndDropped() {
        Meter a = meter(1, 1);
        assertEquals(OfferOutcome.ACCEPTED, offer(a, T0 + 10 * MS, 0, 1f, 1f, 1f));
        assertEquals(OfferOutcome.REPEATED, offer(a, T0 + 20 * MS, 0, 1000f, 1f, 1f));
        assertEquals(OfferOutcome.ACCEPTED, offer(a, T0 + 3 * S + 999 * MS, 0, 3f, 1f, 1f), "the last interval held open");
        assertEquals(OfferOutcome.AHEAD, offer(a, T0 + 4 * S, 0, 4f, 1f, 1f));
        agg.poll(T0 + 1_500 * MS);
        assertEquals(OfferOutcome.LATE, offer(a, T0 + 999 * MS, 0, 1f, 1f, 1f));
        assertEquals(OfferOutcome.LATE, offer(a, T0 - 1, 0, 1f, 1f, 1f));
        assertEquals(OfferOutcome.ACCEPTED, offer(a, T0 + 4 * S, 0, 4f, 1f, 1f), "the window moved on");
        assertEquals(3, agg.offers(OfferOutcome.ACCEPTED));
        assertEquals(1, agg.offers(OfferOutcome.REPEATED));
        assertEquals(1, agg.offers(OfferOutcome.AHEAD));
        assertEquals(2, agg.offers(OfferOutcome.LATE));
        AggregatePayload v = sink.snapshot().get(0).view();
        assertEquals(1.0, v.sum(ValueKind.ACTIVE_POWER), "the first reading of the interval counts");
    }

    @Test
    void silentRegionsStillEmitTheirMissingMeters() {
        meter(1, 5);
        meter(2, 5);
        agg.poll(T0 + 2_500 * MS);
        List<RecordingSink.Emitted> out = sink.snapshot();
        assertEquals(2, out.size());
        assertEquals(T0, out.get(0).startNanos());
        assertEquals(T0 + S, out.get(1).startNanos());
        AggregatePayload v = out.get(1).view();
        assertEquals(0, v.reporting());
        assertEquals(2, v.missing());
        assertEquals(1, v.listedMissing(0));
        assertEquals(2, v.listedMissing(1));
    }

    @Test
    void aMeterIsExpectedFromTheIntervalAfterItsHello() {
        Meter a = meter(1, 1);
        RegionAggregator.Registration late = agg.register(2, 1, T0 + 300 * MS);
        offer(late.meter(), T0 + 400 * MS, 0, 1f, 1f, 1f);
        agg.poll(T0 + 2_500 * MS);
        AggregatePayload first = sink.snapshot().get(0).view();
        assertEquals(1, first.expected());
        assertEquals(1, first.reporting(), "it reports all the same");
        assertEquals(1, first.missing());
        assertEquals(a.id(), first.listedMissing(0));
        assertEquals(2, sink.snapshot().get(1).view().expected());
    }

    @Test
    void theMissingListIsBoundedToThePayloadAndFlagged() {
        for (int i = 0; i < 1_000; i++) {
            Meter m = meter(5_000 - i, 9); // registered in descending id order; listed ascending
            if (i % 100 == 0) {
                offer(m, T0, 0, 1f, 1f, 1f);
            }
        }
        agg.poll(T0 + 1_500 * MS);
        RecordingSink.Emitted e = sink.snapshot().get(0);
        assertEquals(WireFormat.MAX_PAYLOAD_LENGTH, e.payload().length);
        assertEquals(326, AggregatePayload.MAX_LISTED_MISSING);
        AggregatePayload v = e.view();
        assertEquals(10, v.reporting());
        assertEquals(990, v.missing());
        assertEquals(326, v.listed());
        assertEquals(AggregatePayload.FLAG_MISSING_TRUNCATED, v.flags());
        for (int i = 1; i < v.listed(); i++) {
            assertTrue(v.listedMissing(i - 1) < v.listedMissing(i));
        }
    }

    @Test
    void aClockJumpEmitsTheOpenIntervalsAndSkipsTheRest() {
        Meter a = meter(1, 1);
        offer(a, T0 + 2 * S, 0, 1f, 1f, 1f);
        assertEquals(4, agg.poll(T0 + 3_600 * S));
        assertEquals(4, sink.snapshot().size());
        assertEquals(1, sink.snapshot().get(2).view().reporting());
        assertEquals(3_600 - 4 - 1, agg.intervalsSkipped());
        assertEquals(T0 + 3_600 * S + 500 * MS, agg.nextDeadline());
        assertEquals(1, agg.poll(T0 + 3_600 * S + 500 * MS));
        assertEquals(T0 + 3_599 * S, sink.snapshot().get(4).startNanos());
    }

    @Test
    void aMeterWithoutConnectionsIsForgottenAndItsSlotReusedClean() {
        RegionAggregator forgetful = new RegionAggregator(settings.withForgetAfter(Duration.ofSeconds(2)), sink, T0 + 500 * MS);
        Meter a = forgetful.register(1, 1, T0 - S).meter();
        assertEquals(OfferOutcome.ACCEPTED, forgetful.offer(a, T0 + S, 0, ALL, new float[3]));
        forgetful.disconnected(a, T0 + S);
        forgetful.poll(T0 + 2 * S + 500 * MS); // interval T0 (missing), T0+1 (reported)
        assertEquals(1, forgetful.meters());
        forgetful.poll(T0 + 3 * S + 500 * MS); // T0+2: forgotten now, not expected
        assertEquals(0, forgetful.meters());
        assertEquals(0, forgetful.regions(), "an empty region goes too");
        assertEquals(1, forgetful.metersForgotten());
        assertEquals(OfferOutcome.FORGOTTEN, forgetful.offer(a, T0 + 3 * S, 0, ALL, new float[3]));
        assertEquals(2, sink.snapshot().size(), "nothing for a region with no meter and no reading");

        // a meter forgotten while an open interval holds its report: the next in its slot starts clean
        Meter b = forgetful.register(2, 1, T0 + 3 * S).meter();
        Meter c = forgetful.register(3, 1, T0 + 3 * S).meter();
        assertEquals(OfferOutcome.ACCEPTED, forgetful.offer(c, T0 + 6 * S + 100 * MS, 0, ALL, new float[3]));
        forgetful.disconnected(c, T0 + 4 * S);
        forgetful.poll(T0 + 6 * S + 500 * MS);
        assertEquals(2, forgetful.metersForgotten());
        Meter d = forgetful.register(4, 1, T0 + 6 * S + 600 * MS).meter();
        assertEquals(OfferOutcome.ACCEPTED, forgetful.offer(d, T0 + 6 * S + 700 * MS, 0, ALL, new float[3]),
                "not taken for the forgotten meter's report");
        assertEquals(OfferOutcome.ACCEPTED, forgetful.offer(b, T0 + 6 * S + 700 * MS, 0, ALL, new float[3]));
        forgetful.poll(T0 + 7 * S + 500 * MS);
        AggregatePayload last = sink.snapshot().get(sink.snapshot().size() - 1).view();
        assertEquals(T0 + 6 * S, last.intervalStartNanos());
        assertEquals(3, last.reporting());
        assertEquals(1, last.expected(), "b; d came during the interval, c is forgotten");
    }

    @Test
    void hellosBeyondTheLimitsOrInAnotherRegionAreRefused() {
        RegionAggregator small = new RegionAggregator(settings.withMaxMeters(3).withMaxRegions(2), sink, T0);
        assertNotNull(small.register(1, 1, T0).meter());
        assertNotNull(small.register(2, 2, T0).meter());
        assertEquals(HelloRefusal.TOO_MANY_REGIONS, small.register(3, 3, T0).refusal());
        assertEquals(HelloRefusal.REGION_CONFLICT, small.register(1, 2, T0).refusal());
        Meter again = small.register(1, 1, T0).meter();
        assertNotNull(again, "a second connection of a known meter");
        assertNotNull(small.register(3, 2, T0).meter());
        assertEquals(HelloRefusal.TOO_MANY_METERS, small.register(4, 1, T0).refusal());
        assertEquals(1, small.refusals(HelloRefusal.TOO_MANY_METERS));
        assertEquals(1, small.refusals(HelloRefusal.TOO_MANY_REGIONS));
        assertEquals(1, small.refusals(HelloRefusal.REGION_CONFLICT));
    }

    @Test
    void closingAllEmitsTheOpenIntervalsFlagged() {
        Meter a = meter(1, 1);
        offer(a, T0 + 100 * MS, 0, 1f, 1f, 1f);
        offer(a, T0 + 2 * S, 0, 2f, 1f, 1f);
        agg.closeAll(T0 + 200 * MS);
        List<RecordingSink.Emitted> out = sink.snapshot();
        assertEquals(3, out.size());
        for (RecordingSink.Emitted e : out) {
            assertEquals(AggregatePayload.FLAG_CLOSED_EARLY, e.view().flags() & AggregatePayload.FLAG_CLOSED_EARLY);
        }
        assertEquals(OfferOutcome.LATE, offer(a, T0 + 2 * S, 0, 2f, 1f, 1f));
    }

    @Test
    void theViewRefusesWhatIsNotAnAggregate() {
        Meter a = meter(1, 1);
        offer(a, T0, 0, 1f, 1f, 1f);
        agg.poll(T0 + 1_500 * MS);
        byte[] p = sink.snapshot().get(0).payload();
        AggregatePayload v = new AggregatePayload();
        assertTrue(v.wrap(p, 0, p.length));
        assertFalse(v.wrap(p, 0, p.length - 1));
        assertFalse(v.wrap(p, 0, 10));
        byte[] other = p.clone();
        other[0] = 1;
        assertFalse(v.wrap(other, 0, other.length));
        other = p.clone();
        other[35] = 5;
        assertFalse(v.wrap(other, 0, other.length), "a list length the bytes do not hold");
    }
}
