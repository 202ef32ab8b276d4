package org.gridstat.gateway.aggregate;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.gridstat.core.wire.WireFormat;

/**
 * Folds the readings of many meters into one aggregate per region and interval, on the caller's
 * epoch clock; no I/O, no threads, one caller at a time.
 *
 * <p>Intervals are aligned to multiples of the interval since the epoch. A meter counts once per
 * interval: its first reading there is folded (count, sum, min, max per value kind), later ones
 * are {@link OfferOutcome#REPEATED}. {@link #poll} closes each interval once the clock passes its
 * end plus the grace and hands every region's aggregate to the sink, regions in id order, even a
 * region where no meter reported (then every expected meter is missing). A reading for a closed
 * interval is {@link OfferOutcome#LATE}; one beyond the {@code openIntervals} held open is
 * {@link OfferOutcome#AHEAD}. If the clock jumps further than the intervals held open (a stepped
 * clock, a stalled caller), the intervals beyond them hold no readings and are skipped, counted,
 * instead of emitting a flood of empty aggregates.
 *
 * <p>Memory is bounded by the settings: per meter a few fields and one bit per open interval; per
 * region {@code openIntervals} totals. Offering allocates nothing; registering and closing may.
 */
public final class RegionAggregator {
    /** A meter as the aggregator knows it; the handle its connections offer readings with. */
    public static final class Meter {
        private final long id;
        private final Region region;
        private final int index;
        /** Intervals before this one did not expect the meter: it was not known yet. */
        private final long expectedFrom;
        private int connections;
        private long disconnectedAtNanos;
        private boolean forgotten;

        private Meter(long id, Region region, int index, long expectedFrom) {
            this.id = id;
            this.region = region;
            this.index = index;
            this.expectedFrom = expectedFrom;
        }

        public long id() {
            return id;
        }

        public int regionId() {
            return region.id;
        }
    }

    /** A hello's answer: the meter, or why not. */
    public record Registration(Meter meter, HelloRefusal refusal) {
    }

    /** One open interval's totals for one region. */
    private static final class Totals {
        long interval = Long.MIN_VALUE;
        int reporting;
        int flagged;
        long[] reported = new long[1];
        final int[] count = new int[AggregatePayload.KINDS];
        final double[] sum = new double[AggregatePayload.KINDS];
        final float[] min = new float[AggregatePayload.KINDS];
        final float[] max = new float[AggregatePayload.KINDS];

        void open(long at, int meterSlots) {
            interval = at;
            reporting = 0;
            flagged = 0;
            int words = (meterSlots + 63) >>> 6;
            if (reported.length < words) {
                reported = new long[Math.max(words, 2 * reported.length)];
            } else {
                Arrays.fill(reported, 0L);
            }
            Arrays.fill(count, 0);
            Arrays.fill(sum, 0.0);
            Arrays.fill(min, Float.POSITIVE_INFINITY);
            Arrays.fill(max, Float.NEGATIVE_INFINITY);
        }

        /** Sets the meter's bit; false if it was set already. */
        boolean mark(int index) {
            int w = index >>> 6;
            if (w >= reported.length) {
                reported = Arrays.copyOf(reported, Math.max(w + 1, 2 * reported.length));
            }
            long bit = 1L << index;
            if ((reported[w] & bit) != 0) {
                return false;
            }
            reported[w] |= bit;
            return true;
        }

        boolean marked(int index) {
            int w = index >>> 6;
            return w < reported.length && (reported[w] & (1L << index)) != 0;
        }

        void unmark(int index) {
            int w = index >>> 6;
            if (w < reported.length) {
                reported[w] &= ~(1L << index);
            }
        }
    }

    private static final class Region {
        final int id;
        final Totals[] ring;
        Meter[] meters = new Meter[16];
        /** Slots used so far; freed slots below it are reused first. */
        int slots;
        int count;
        int[] free = new int[16];
        int freeCount;

        Region(int id, int openIntervals) {
            this.id = id;
            this.ring = new Totals[openIntervals];
            for (int i = 0; i < openIntervals; i++) {
                ring[i] = new Totals();
            }
        }

        int take() {
            count++;
            if (freeCount > 0) {
                return free[--freeCount];
            }
            if (slots == meters.length) {
                meters = Arrays.copyOf(meters, 2 * slots);
            }
            return slots++;
        }

        void give(int index) {
            meters[index] = null;
            count--;
            if (freeCount == free.length) {
                free = Arrays.copyOf(free, 2 * freeCount);
            }
            free[freeCount++] = index;
            for (Totals t : ring) {
                t.unmark(index); // the next meter in this slot must not inherit the report
            }
        }

        boolean holdsAfter(long interval) {
            for (Totals t : ring) {
                if (t.interval != Long.MIN_VALUE && t.interval > interval) {
                    return true;
                }
            }
            return false;
        }
    }

    private final AggregatorSettings settings;
    private final AggregateSink sink;
    private final long intervalNanos;
    private final long graceNanos;
    private final long forgetNanos;
    private final int ringSize;
    private final Map<Long, Meter> meters = new HashMap<>();
    private final TreeMap<Integer, Region> regions = new TreeMap<>();
    private final byte[] payload = new byte[WireFormat.MAX_PAYLOAD_LENGTH];
    private final ByteBuffer out = ByteBuffer.wrap(payload);
    private final long[] missing = new long[AggregatePayload.MAX_LISTED_MISSING];
    private final long[] offers = new long[OfferOutcome.values().length];
    private final long[] refusals = new long[HelloRefusal.values().length];
    /** Every interval before this one is closed. */
    private long closedBefore;
    private long emitted;
    private long intervalsClosed;
    private long intervalsSkipped;
    private long forgotten;

    /** @param startNanos the epoch clock now: intervals that were already due are closed, empty */
    public RegionAggregator(AggregatorSettings settings, AggregateSink sink, long startNanos) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.intervalNanos = settings.interval().toNanos();
        this.graceNanos = settings.grace().toNanos();
        this.forgetNanos = settings.forgetAfter().toNanos();
        this.ringSize = settings.openIntervals();
        this.closedBefore = Math.floorDiv(startNanos - graceNanos, intervalNanos);
    }

    public AggregatorSettings settings() {
        return settings;
    }

    /** A meter's hello: the meter (known already, or new in its region), or a refusal, counted. */
    public Registration register(long meterId, int regionId, long nowNanos) {
        Meter m = meters.get(meterId);
        if (m != null) {
            if (m.region.id != regionId) {
                return refuse(HelloRefusal.REGION_CONFLICT);
            }
            m.connections++;
            return new Registration(m, null);
        }
        if (meters.size() >= settings.maxMeters()) {
            return refuse(HelloRefusal.TOO_MANY_METERS);
        }
        Region r = regions.get(regionId);
        if (r == null) {
            if (regions.size() >= settings.maxRegions()) {
                return refuse(HelloRefusal.TOO_MANY_REGIONS);
            }
            r = new Region(regionId, ringSize);
            regions.put(regionId, r);
        }
        int index = r.take();
        m = new Meter(meterId, r, index, Math.floorDiv(nowNanos, intervalNanos) + 1);
        m.connections = 1;
        r.meters[index] = m;
        meters.put(meterId, m);
        return new Registration(m, null);
    }

    private Registration refuse(HelloRefusal why) {
        refusals[why.ordinal()]++;
        return new Registration(null, why);
    }

    /** One of the meter's connections ended; with none left, it is forgotten after {@code forgetAfter}. */
    public void disconnected(Meter m, long nowNanos) {
        if (m.connections > 0 && --m.connections == 0) {
            m.disconnectedAtNanos = nowNanos;
        }
    }

    /**
     * Folds one reading, counted by outcome. Allocates nothing.
     *
     * @param timeNanos the reading's time, ns since the epoch
     * @param kinds the {@link ValueKind} bits of the values it carries
     * @param values by kind ordinal; only those in {@code kinds} are read
     */
    public OfferOutcome offer(Meter m, long timeNanos, int quality, int kinds, float[] values) {
        OfferOutcome o = fold(m, timeNanos, quality, kinds, values);
        offers[o.ordinal()]++;
        return o;
    }

    private OfferOutcome fold(Meter m, long timeNanos, int quality, int kinds, float[] values) {
        if (m.forgotten) {
            return OfferOutcome.FORGOTTEN;
        }
        long interval = Math.floorDiv(timeNanos, intervalNanos);
        if (interval < closedBefore) {
            return OfferOutcome.LATE;
        }
        if (interval - closedBefore >= ringSize) {
            return OfferOutcome.AHEAD;
        }
        Region r = m.region;
        Totals t = r.ring[(int) Math.floorMod(interval, (long) ringSize)];
        if (t.interval != interval) {
            t.open(interval, r.slots);
        }
        if (!t.mark(m.index)) {
            return OfferOutcome.REPEATED;
        }
        t.reporting++;
        if (quality != 0) {
            t.flagged++;
        }
        for (int k = 0; k < AggregatePayload.KINDS; k++) {
            if ((kinds & (1 << k)) != 0) {
                float v = values[k];
                t.count[k]++;
                t.sum[k] += v;
                t.min[k] = Math.min(t.min[k], v);
                t.max[k] = Math.max(t.max[k], v);
            }
        }
        return OfferOutcome.ACCEPTED;
    }

    /** Closes and emits every interval whose end plus the grace is not after {@code nowNanos}; how many. */
    public int poll(long nowNanos) {
        int closed = 0;
        while ((closedBefore + 1) * intervalNanos + graceNanos <= nowNanos) {
            if (closed == ringSize) {
                // no interval beyond the ones held open can hold a reading: skip to the first not due
                long next = Math.floorDiv(nowNanos - graceNanos, intervalNanos);
                intervalsSkipped += next - closedBefore;
                closedBefore = next;
                break;
            }
            close(closedBefore, false, nowNanos);
            closedBefore++;
            closed++;
        }
        return closed;
    }

    /**
     * Emits every open interval up to the last that holds a reading, flagged as closed early: the
     * gateway is shutting down and would otherwise lose them.
     */
    public void closeAll(long nowNanos) {
        long last = Long.MIN_VALUE;
        for (Region r : regions.values()) {
            for (Totals t : r.ring) {
                if (t.interval != Long.MIN_VALUE && t.interval >= closedBefore) {
                    last = Math.max(last, t.interval);
                }
            }
        }
        while (closedBefore <= last) {
            close(closedBefore, true, nowNanos);
            closedBefore++;
        }
    }

    /** The epoch time at which the oldest open interval is due. */
    public long nextDeadline() {
        return (closedBefore + 1) * intervalNanos + graceNanos;
    }

    private void close(long interval, boolean early, long nowNanos) {
        intervalsClosed++;
        Iterator<Region> it = regions.values().iterator();
        while (it.hasNext()) {
            Region r = it.next();
            Totals t = r.ring[(int) Math.floorMod(interval, (long) ringSize)];
            boolean has = t.interval == interval;
            int expected = 0;
            int absent = 0;
            int listed = 0;
            for (int i = 0; i < r.slots; i++) {
                Meter m = r.meters[i];
                if (m == null) {
                    continue;
                }
                if (m.connections == 0 && nowNanos - m.disconnectedAtNanos >= forgetNanos) {
                    forget(m);
                    continue;
                }
                if (m.expectedFrom > interval) {
                    continue;
                }
                expected++;
                if (!has || !t.marked(i)) {
                    absent++;
                    if (listed < missing.length) {
                        missing[listed++] = m.id;
                    }
                }
            }
            if (has || expected > 0) {
                write(r.id, interval, has ? t : null, expected, absent, listed, early);
                sink.emit(r.id, interval * intervalNanos, payload, 0, out.position());
                emitted++;
            }
            if (has) {
                t.interval = Long.MIN_VALUE;
            }
            if (r.count == 0 && !r.holdsAfter(interval)) {
                it.remove();
            }
        }
    }

    private void forget(Meter m) {
        m.forgotten = true;
        m.region.give(m.index);
        meters.remove(m.id);
        forgotten++;
    }

    private void write(int region, long interval, Totals t, int expected, int absent, int listed, boolean early) {
        Arrays.sort(missing, 0, listed);
        int flags = (absent > listed ? AggregatePayload.FLAG_MISSING_TRUNCATED : 0)
                | (early ? AggregatePayload.FLAG_CLOSED_EARLY : 0);
        out.clear();
        out.put((byte) AggregatePayload.KIND).put((byte) AggregatePayload.VERSION).putShort((short) region)
                .putLong(interval * intervalNanos).putInt((int) settings.interval().toMillis())
                .putInt(expected).putInt(t == null ? 0 : t.reporting).putInt(absent).putInt(t == null ? 0 : t.flagged)
                .put((byte) AggregatePayload.KINDS).put((byte) flags).putShort((short) listed);
        for (int k = 0; k < AggregatePayload.KINDS; k++) {
            int n = t == null ? 0 : t.count[k];
            out.putInt(n);
            out.putDouble(n == 0 ? 0.0 : t.sum[k]);
            out.putDouble(n == 0 ? Double.NaN : t.sum[k] / n);
            out.putFloat(n == 0 ? Float.NaN : t.min[k]);
            out.putFloat(n == 0 ? Float.NaN : t.max[k]);
        }
        for (int i = 0; i < listed; i++) {
            out.putInt((int) missing[i]);
        }
    }

    /** Readings offered with this outcome. */
    public long offers(OfferOutcome o) {
        return offers[o.ordinal()];
    }

    /** Hellos refused for this reason. */
    public long refusals(HelloRefusal r) {
        return refusals[r.ordinal()];
    }

    /** Aggregates handed to the sink. */
    public long emitted() {
        return emitted;
    }

    public long intervalsClosed() {
        return intervalsClosed;
    }

    /** Intervals passed over without emitting, the clock having jumped past the open ones. */
    public long intervalsSkipped() {
        return intervalsSkipped;
    }

    public long metersForgotten() {
        return forgotten;
    }

    public int meters() {
        return meters.size();
    }

    public int regions() {
        return regions.size();
    }
}
