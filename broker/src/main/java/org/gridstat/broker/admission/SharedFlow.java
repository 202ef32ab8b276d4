package org.gridstat.broker.admission;

import java.util.TreeMap;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.filter.SampleGrid;
import org.gridstat.core.model.ServiceClass;

/**
 * The one flow a router holds for a variable on an out-link, whatever the number of subscriptions
 * behind it: installed in the most urgent class among theirs, with the highest of their rates as
 * its assured rate (multicast: one copy crosses the link), filtering by the union of their
 * intervals. The flow planner installs it so and admission counts it so: both follow this rule.
 *
 * <p>A teardown can move the flow to a less urgent class (its most urgent subscribers leave) with
 * a rate that class's share was never asked for. So the flow also holds, in each class it has
 * subscribers in, the highest rate among them and the less urgent ones ({@link #held}): what it
 * would need there once the more urgent subscribers left. In its own class that is its assured
 * rate; in the others it stands by. Held amounts only fall when a subscription leaves, so a
 * teardown never pushes a class over its share. Mutable multisets, so that removing a subscription
 * undoes exactly what adding it did.
 *
 * <p>For the deadline test ({@link HopDeadlineTest}) the flow also keeps its largest frame on the
 * wire and, where admission gives them, its HRT and LRT subscriptions' hop deadlines on the link:
 * the flow is due by the tightest.
 */
public final class SharedFlow {
    /** The most intervals one flow's rate filter can carry: what the control channel can encode. */
    public static final int MAX_INTERVALS = ControlCodec.MAX_INTERVALS;

    private static final ServiceClass[] CLASSES = ServiceClass.values(); // in order of urgency

    /** Per class (ordinal): the rates of its subscriptions, bytes per second, a multiset. */
    @SuppressWarnings("unchecked")
    private final TreeMap<Long, Integer>[] ratesByClass = new TreeMap[CLASSES.length];
    private final TreeMap<Long, Integer> intervals = new TreeMap<>();
    /** Wire bytes of the subscriptions' frames, a multiset: created when they differ (a variable's are alike). */
    private TreeMap<Integer, Integer> wireBytes;
    /** The subscriptions' wire bytes while they are all alike (0: none yet). */
    private int sameWireBytes;
    /** Hop deadlines (relative, ns) of the HRT and LRT subscriptions that have one here, a multiset; null if none. */
    private TreeMap<Long, Integer> deadlines;
    /** {@link #periods()}, until the intervals change. */
    private long[] periods;
    /** How the deadline test counts this flow on its link ({@link HopDeadlineTest}, which keeps it); null: not counted. */
    HopDeadlineTest.Entry counted;
    /** The periods of single intervals: most flows have one of a few. Read-only arrays. */
    private static final java.util.concurrent.ConcurrentHashMap<Long, long[]> SINGLE =
            new java.util.concurrent.ConcurrentHashMap<>();
    private int subscriptions;

    /** {@link #hopDeadline()} of a flow none of whose subscriptions has one. */
    public static final long NO_DEADLINE = Long.MAX_VALUE;

    public SharedFlow() {
        for (int i = 0; i < CLASSES.length; i++) {
            ratesByClass[i] = new TreeMap<>();
        }
    }

    public void add(SubscriptionRequest r) {
        add(r, NO_DEADLINE);
    }

    /**
     * Adds a subscription due to leave the link within {@code hopDeadline} ns of arriving there
     * ({@link #NO_DEADLINE}: not given); a BE subscription's deadline is not kept.
     */
    public void add(SubscriptionRequest r, long hopDeadline) {
        count(ratesByClass[r.qos().serviceClass().ordinal()], r.bytesPerSecond(), +1);
        if (count(intervals, r.qos().intervalNanos(), +1) == 1) {
            periods = null;
        }
        countWire(r.wireBytes(), +1);
        if (keepsDeadline(r, hopDeadline)) {
            if (deadlines == null) {
                deadlines = new TreeMap<>();
            }
            count(deadlines, hopDeadline, +1);
        }
        subscriptions++;
    }

    /** Takes back one {@link #add(SubscriptionRequest)} of the same request. */
    public void remove(SubscriptionRequest r) {
        remove(r, NO_DEADLINE);
    }

    /** Takes back one {@link #add(SubscriptionRequest, long)} of the same request and deadline. */
    public void remove(SubscriptionRequest r, long hopDeadline) {
        TreeMap<Long, Integer> rates = ratesByClass[r.qos().serviceClass().ordinal()];
        boolean deadline = keepsDeadline(r, hopDeadline);
        if (!rates.containsKey(r.bytesPerSecond()) || !intervals.containsKey(r.qos().intervalNanos())
                || !(wireBytes == null ? sameWireBytes == r.wireBytes() : wireBytes.containsKey(r.wireBytes()))
                || (deadline && (deadlines == null || !deadlines.containsKey(hopDeadline)))) {
            throw new IllegalStateException("subscription " + r.subscriptionId() + " is not in this flow");
        }
        count(rates, r.bytesPerSecond(), -1);
        if (count(intervals, r.qos().intervalNanos(), -1) == 0) {
            periods = null;
        }
        countWire(r.wireBytes(), -1);
        if (deadline) {
            count(deadlines, hopDeadline, -1);
        }
        subscriptions--;
        if (subscriptions == 0) {
            sameWireBytes = 0;
            wireBytes = null;
        }
    }

    private void countWire(int bytes, int sign) {
        if (wireBytes == null && (sameWireBytes == 0 || sameWireBytes == bytes)) {
            sameWireBytes = sign > 0 || subscriptions > 1 ? bytes : 0;
            return;
        }
        if (wireBytes == null) {
            wireBytes = new TreeMap<>();
            wireBytes.put(sameWireBytes, subscriptions);
        }
        count(wireBytes, bytes, sign);
    }

    /** Whether a subscription's hop deadline counts: one given, for an HRT or LRT subscription. */
    static boolean keepsDeadline(SubscriptionRequest r, long hopDeadline) {
        return hopDeadline != NO_DEADLINE && r.qos().serviceClass() != ServiceClass.BE;
    }

    /** The tightest hop deadline of its HRT and LRT subscriptions, ns; {@link #NO_DEADLINE} if none has one. */
    public long hopDeadline() {
        return deadlines == null || deadlines.isEmpty() ? NO_DEADLINE : deadlines.firstKey();
    }

    /** The largest frame its subscriptions' variable takes on the wire, headers included; 0 if none. */
    public int wireBytes() {
        return wireBytes == null ? sameWireBytes : wireBytes.isEmpty() ? 0 : wireBytes.lastKey();
    }

    /**
     * Whether adding {@code r} with {@code hopDeadline} would leave what the deadline test sees of
     * the flow unchanged: its class, intervals and frame size, and a deadline no tighter.
     */
    public boolean unchangedBy(SubscriptionRequest r, long hopDeadline) {
        return !isEmpty() && r.qos().serviceClass().ordinal() >= serviceClass().ordinal()
                && intervals.containsKey(r.qos().intervalNanos()) && r.wireBytes() <= wireBytes()
                && (!keepsDeadline(r, hopDeadline) || hopDeadline >= hopDeadline());
    }

    /**
     * The least time between two events its rate filter forwards, one per interval whose events
     * no shorter interval's already include: with the union of the intervals forwarded, 20 and
     * 30 ms make two periodic streams (the 30 ms samples between the 20 ms ones travel too), 20 and
     * 40 ms one (every 40 ms point is a 20 ms point). An interval of a whole number of samples per
     * second lies on its second-aligned grid ({@link SampleGrid}), whose points are at least
     * ⌊10⁹/rate⌋ ns apart (16,666,666 ns at 60 Hz); another interval's points are the interval apart.
     */
    public long[] periods() {
        if (periods == null) {
            periods = intervals.size() == 1 ? periodsOf(intervals.firstKey()) : periodsOf(intervals());
        }
        return periods;
    }

    /** {@link #periods()} of one interval; the array is shared and must not be changed. */
    static long[] periodsOf(long interval) {
        long[] p = SINGLE.get(interval);
        if (p == null) {
            if (SINGLE.size() >= 4096) {
                SINGLE.clear();
            }
            p = periodsOf(new long[] {interval});
            SINGLE.put(interval, p);
        }
        return p;
    }

    /**
     * Whether every multiple of {@code interval} (a grid of no whole rate) is a point of the
     * second-aligned grid of {@code rate} samples per second: whole seconds are, and, where the
     * rate divides a second, the multiples of its interval.
     */
    private static boolean onWholeRateGrid(long interval, long rate) {
        return interval % 1_000_000_000L == 0
                || (1_000_000_000L % rate == 0 && interval % (1_000_000_000L / rate) == 0);
    }

    /** {@link #periods()} with {@code interval} among the intervals. */
    public long[] periodsWith(long interval) {
        if (intervals.containsKey(interval)) {
            return periods();
        }
        long[] with = java.util.Arrays.copyOf(intervals(), intervals.size() + 1);
        with[with.length - 1] = interval;
        java.util.Arrays.sort(with);
        return periodsOf(with);
    }

    /** {@link #periods()} of a set of distinct intervals, shortest first. */
    static long[] periodsOf(long[] intervals) {
        long[] kept = new long[intervals.length];
        long[] rates = new long[intervals.length];
        long[] out = new long[intervals.length];
        int n = 0;
        for (long interval : intervals) {
            long rate = SampleGrid.ofInterval(interval).wholeRate();
            boolean covered = false;
            for (int i = 0; i < n && !covered; i++) {
                covered = rates[i] > 0 ? (rate > 0 ? rates[i] % rate == 0 : onWholeRateGrid(interval, rates[i]))
                        : rate == 0 && interval % kept[i] == 0;
            }
            if (!covered) {
                kept[n] = interval;
                rates[n] = rate;
                out[n] = rate > 0 ? 1_000_000_000L / rate : interval;
                n++;
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }

    public boolean isEmpty() {
        return subscriptions == 0;
    }

    /** The class the flow is installed in: the most urgent of its subscriptions' (BE if none). */
    public ServiceClass serviceClass() {
        for (ServiceClass c : CLASSES) {
            if (!ratesByClass[c.ordinal()].isEmpty()) {
                return c;
            }
        }
        return ServiceClass.BE;
    }

    /** The flow's assured rate, bytes per second: the highest of its subscriptions' (0 if none). */
    public long assuredRate() {
        return held(CLASSES[0], null);
    }

    /**
     * What the flow holds of class {@code c}'s share, bytes per second: if it has subscribers in
     * {@code c}, the highest rate among them and the less urgent ones, else nothing.
     */
    public long held(ServiceClass c) {
        return ratesByClass[c.ordinal()].isEmpty() ? 0 : held(c, null);
    }

    /** What the flow would hold of class {@code c}'s share with {@code r} added. */
    public long heldWith(SubscriptionRequest r, ServiceClass c) {
        boolean present = !ratesByClass[c.ordinal()].isEmpty() || r.qos().serviceClass() == c;
        return present ? held(c, r) : 0;
    }

    /** The highest rate of the subscriptions in {@code c} or less urgent classes, {@code extra} among them. */
    private long held(ServiceClass c, SubscriptionRequest extra) {
        long max = extra != null && extra.qos().serviceClass().ordinal() >= c.ordinal() ? extra.bytesPerSecond() : 0;
        for (int i = c.ordinal(); i < CLASSES.length; i++) {
            if (!ratesByClass[i].isEmpty()) {
                max = Math.max(max, ratesByClass[i].lastKey());
            }
        }
        return max;
    }

    /** The distinct intervals the flow would filter by with {@code r} added. */
    public int distinctIntervalsWith(SubscriptionRequest r) {
        return intervals.size() + (intervals.containsKey(r.qos().intervalNanos()) ? 0 : 1);
    }

    /** The distinct intervals of its subscriptions, shortest first. */
    public long[] intervals() {
        return intervals.keySet().stream().mapToLong(Long::longValue).toArray();
    }

    /** Counts {@code value} in or out; returns how many times it is in the multiset now. */
    private static <K> int count(TreeMap<K, Integer> multiset, K value, int sign) {
        int n = multiset.getOrDefault(value, 0) + sign;
        if (n <= 0) {
            multiset.remove(value);
        } else {
            multiset.put(value, n);
        }
        return Math.max(n, 0);
    }
}
