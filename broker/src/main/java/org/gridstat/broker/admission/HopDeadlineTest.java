package org.gridstat.broker.admission;

import java.math.BigInteger;
import org.gridstat.broker.admission.EdfDemandBound.Missed;
import org.gridstat.broker.admission.EdfDemandBound.Outcome;
import org.gridstat.broker.admission.EdfDemandBound.Overloaded;
import org.gridstat.broker.admission.EdfDemandBound.Schedulable;
import org.gridstat.broker.admission.EdfDemandBound.TooManyPoints;
import org.gridstat.broker.topology.Link;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.core.time.Saturating;
import org.gridstat.core.wire.WireFormat;

/**
 * Per link and class (HRT, LRT), the EDF demand-bound test ({@link EdfDemandBound}) of the hop
 * deadlines of the flows on the link, so that what admission admits the link scheduler can send in
 * time. The model, and what it assumes:
 *
 * <ul>
 *   <li>Each HRT or LRT flow ({@link SharedFlow}) on a link is a sporadic task per period it is
 *       forwarded at ({@link SharedFlow#periods()}: its shortest interval, unless it also carries
 *       intervals that are not multiples of a shorter one). Its work per event, C, is its largest
 *       frame on the wire (frame + 28 bytes of IPv4/UDP headers) at the rate its class is served
 *       at: the class's share of the link, what the bandwidth test reserves against (the link's
 *       whole bandwidth if the class has no share). Its deadline D is the tightest hop deadline of
 *       its HRT and LRT subscriptions there: the hop's share of the end-to-end bound less the
 *       link's propagation delay, the time the event may spend queued and sent. A flow whose
 *       subscriptions give none (admitted over a parent's border link) is due within its period.</li>
 *   <li>Blocking B: a frame that the EDF order cannot take back is already on its way when the busy
 *       period starts: the largest datagram (1,472 + 28 bytes) and the pacer's burst beyond one
 *       frame (one 50 us pacing tick of the link, {@link LinkSpec#defaultBurst}), at the link's
 *       bandwidth.</li>
 *   <li>HRT: {@code dbf_HRT(t) + B <= t} at every HRT deadline of the busy period.</li>
 *   <li>LRT: the link scheduler serves HRT flows within their rate before any LRT flow, whatever
 *       their deadlines, so LRT is charged not HRT's demand bound but what HRT can send: at once,
 *       one frame per HRT flow and period (σ), and then at its rate ρ (the sum over the flows of
 *       frame / period). Over any busy interval of length t, HRT thus sends at most σ + ρt, and
 *       LRT is served at least at {@code S = min(LRT share, bandwidth − ρ)} after
 *       {@code (σ + B's bytes) / (bandwidth − ρ)}: that is the LRT test's blocking, and LRT's C is
 *       its frame at S. (Counting HRT's demand bound instead would miss HRT events due after the
 *       LRT deadline but sent before it; a strict staircase of HRT's releases would be tighter
 *       but ties the test to HRT's periods; this is safe and as cheap as the HRT test.)</li>
 *   <li>Not modelled: control traffic (rare and small; the class shares leave the link's rest to
 *       it and to best effort); bunching of a flow's events by queueing upstream (the first hop
 *       sees them at its publisher's period; a later hop can see two closer when the first was
 *       late upstream and the second not); a rate that does not divide the publisher's (the
 *       filter forwards the first sample after each point of the subscription's grid, which can
 *       bring two closer than the interval); flows above their assured rate, which the scheduler
 *       serves after all flows within theirs.</li>
 * </ul>
 *
 * A BE flow has no deadline and is not tested: it only blocks, which B counts. A subscription that
 * leaves a flow's class, periods, frame and tightest deadline as they are asks no test.
 *
 * <p>The class's share is a conservative rate: the scheduler sends flows within their assured
 * rate at the link's whole bandwidth, HRT first. It leaves a margin for what is not modelled, and
 * means a class cannot be filled with deadline flows to the last byte of its share (a utilisation
 * of 1 at the share: no busy period ends), which the bandwidth test alone would allow.
 *
 * <p>An instance keeps, per link and class, the flows' tasks and their sums (frames, rates, least
 * period and deadline), updated as flows change; each flow holds its own entry. Most links are
 * far from full: when the blocking and one job of every task fit within the least period and end
 * before the earliest deadline, the busy period is that long and holds no deadline, and the set
 * passes without the sweep, in constant time; otherwise the full test runs, O(n log n) in the
 * flows of the class on the link. Single-threaded, like the controller.
 */
final class HopDeadlineTest {
    /** The most deadlines checked on a link and class before refusing as too costly to check. */
    static final int MAX_POINTS = EdfDemandBound.DEFAULT_MAX_POINTS;
    /** The largest datagram a link carries: the largest frame and its IPv4/UDP headers. */
    static final int MAX_DATAGRAM_BYTES = WireFormat.MAX_FRAME_LENGTH + SubscriptionRequest.PACKET_OVERHEAD;
    private static final long NANO = 1_000_000_000L;
    private static final int HRT = 0;
    private static final int LRT = 1;

    /**
     * A flow as the test counts it: its class (HRT, LRT), largest frame, deadline and periods. The
     * flow keeps the entry it is counted by ({@link SharedFlow#counted}), so no lookup is needed.
     */
    static final class Entry {
        final int cls;
        final int wireBytes;
        final long deadline;
        final long[] periods;
        /** Where it is in its link's dense array. */
        int slot;

        Entry(int cls, int wireBytes, long deadline, long[] periods) {
            this.cls = cls;
            this.wireBytes = wireBytes;
            this.deadline = deadline;
            this.periods = periods;
        }

        /** A task's deadline: the flow's, or its period if it has none. */
        long deadline(long period) {
            return deadline == SharedFlow.NO_DEADLINE ? period : deadline;
        }
    }

    /** The sums over the tasks of one class on one link, and their least period and deadline. */
    private static final class Sums {
        /** Σ frame bytes, one per task: the class's burst. */
        long wire;
        /** Σ frame / period, bytes per second rounded up per task: the class's rate. */
        long rate;
        int tasks;
        long leastPeriod = Long.MAX_VALUE;
        long leastDeadline = Long.MAX_VALUE;
        /** Whether a task holding a least value left: they are found again when next asked. */
        boolean stale;

        void count(Entry e, int sign) {
            for (long period : e.periods) {
                wire += sign * (long) e.wireBytes;
                rate += sign * rateOf(e.wireBytes, period);
                tasks += sign;
                if (sign > 0) {
                    leastPeriod = Math.min(leastPeriod, period);
                    leastDeadline = Math.min(leastDeadline, e.deadline(period));
                } else if (period == leastPeriod || e.deadline(period) == leastDeadline) {
                    stale = true;
                }
            }
        }
    }

    /** The HRT and LRT flows of one link, in a dense array to go through, and their sums per class. */
    private static final class LinkTasks {
        Entry[] all = new Entry[4];
        int size;
        final Sums[] sums = {new Sums(), new Sums()};

        void put(Entry e) {
            if (size == all.length) {
                all = java.util.Arrays.copyOf(all, size * 2);
            }
            e.slot = size;
            all[size++] = e;
            sums[e.cls].count(e, +1);
        }

        void remove(Entry e) {
            Entry last = all[--size];
            all[e.slot] = last;
            last.slot = e.slot;
            all[size] = null;
            sums[e.cls].count(e, -1);
        }

        /** The sums of class {@code cls}, their least values found again if a task holding one left. */
        Sums sums(int cls) {
            Sums k = sums[cls];
            if (k.stale) {
                k.leastPeriod = Long.MAX_VALUE;
                k.leastDeadline = Long.MAX_VALUE;
                for (int i = 0; i < size; i++) {
                    Entry e = all[i];
                    if (e.cls == cls) {
                        for (long period : e.periods) {
                            k.leastPeriod = Math.min(k.leastPeriod, period);
                            k.leastDeadline = Math.min(k.leastDeadline, e.deadline(period));
                        }
                    }
                }
                k.stale = false;
            }
            return k;
        }
    }

    /** Per link: its HRT and LRT flows; null where it has none. */
    private final LinkTasks[] links;
    private final EdfDemandBound test = new EdfDemandBound();
    /** The flows of a link with no HRT or LRT flow. */
    private final LinkTasks none = new LinkTasks();

    HopDeadlineTest(int links) {
        this.links = new LinkTasks[links];
    }

    /**
     * The bytes that can be ahead of the first frame of a busy period and not be taken back: the
     * largest datagram, and the pacer's burst beyond one frame.
     */
    static long blockingBytes(Link l) {
        return MAX_DATAGRAM_BYTES + LinkSpec.defaultBurst(l.bandwidth()) - LinkSpec.MAX_FRAME_BYTES;
    }

    /** Counts flow {@code f} on link {@code l} as it is now; call after every change of a flow on a link. */
    void changed(Link l, SharedFlow f) {
        LinkTasks own = links[l.index()];
        int cls = f.isEmpty() ? -1 : index(f.serviceClass());
        Entry old = f.counted;
        if (old != null) {
            if (old.cls == cls && old.wireBytes == f.wireBytes() && old.deadline == f.hopDeadline()
                    && java.util.Arrays.equals(old.periods, f.periods())) {
                return; // what the test sees of the flow is as it was
            }
            own.remove(old);
            f.counted = null;
        }
        if (cls >= 0) {
            if (own == null) {
                own = links[l.index()] = new LinkTasks();
            }
            Entry e = new Entry(cls, f.wireBytes(), f.hopDeadline(), f.periods());
            own.put(e);
            f.counted = e;
        } else if (own != null && own.size == 0) {
            links[l.index()] = null;
        }
    }

    /**
     * Why the link cannot take subscription {@code r} into its flow {@code f} ({@code null}: a new
     * flow) with hop deadline {@code deadline}, or {@code null} if every class it touches still
     * passes the test.
     */
    String refusal(Link l, SharedFlow f, SubscriptionRequest r, long deadline) {
        if (f != null && f.unchangedBy(r, deadline)) {
            return null;
        }
        ServiceClass c = r.qos().serviceClass();
        if (f != null && !f.isEmpty() && f.serviceClass().ordinal() < c.ordinal()) {
            c = f.serviceClass();
        }
        int cls = index(c);
        if (cls < 0) {
            return null;
        }
        long due = SharedFlow.keepsDeadline(r, deadline) ? deadline : SharedFlow.NO_DEADLINE;
        Entry candidate = f == null || f.isEmpty()
                ? new Entry(cls, r.wireBytes(), due, SharedFlow.periodsOf(r.qos().intervalNanos()))
                : new Entry(cls, Math.max(f.wireBytes(), r.wireBytes()), Math.min(due, f.hopDeadline()),
                f.periodsWith(r.qos().intervalNanos()));
        LinkTasks own = links[l.index()];
        if (own == null) {
            own = none;
        }
        Entry old = f == null ? null : f.counted;
        String why = cls == HRT ? check(l, ServiceClass.HRT, own, old, candidate) : null;
        if (why == null && (cls == LRT || own.sums[LRT].tasks > tasksOf(old, LRT))) {
            why = check(l, ServiceClass.LRT, own, old, candidate);
        }
        return why;
    }

    /**
     * The test of class {@code c} on link {@code l} ({@code own}: its flows and sums as they are)
     * with the subscription's flow counted as {@code candidate} instead of {@code old} (null: a new flow).
     */
    private String check(Link l, ServiceClass c, LinkTasks own, Entry old, Entry candidate) {
        long capacity = l.bandwidth();
        long burst = 0;
        long rate = 0;
        if (c == ServiceClass.LRT) {
            burst = own.sums[HRT].wire + wireOf(candidate, HRT) - wireOf(old, HRT);
            rate = own.sums[HRT].rate + rateOf(candidate, HRT) - rateOf(old, HRT);
            if (rate >= capacity) {
                return String.format("link %s, LRT: the HRT flows may send %s, the whole link's %s, leaving LRT"
                        + " nothing", l.name(), kbits(rate), kbits(capacity));
            }
        }
        int k = index(c);
        Sums tasks = own.sums(k);
        long share = l.classCapacity(c);
        long served = Math.min(share > 0 ? share : capacity, capacity - rate);
        long blocking = nanos(Saturating.add(blockingBytes(l), burst), capacity - rate);
        // Each task's C is at most its share of the class's bytes, plus the nanosecond it is rounded
        // up; the least period and deadline count the flow's old tasks too, which only makes them less.
        long wire = tasks.wire + wireOf(candidate, k) - wireOf(old, k);
        long count = tasks.tasks + tasksOf(candidate, k) - tasksOf(old, k);
        long busy = Saturating.add(blocking, Saturating.add(nanos(wire, served), count));
        long leastPeriod = tasks.leastPeriod;
        long leastDeadline = tasks.leastDeadline;
        if (candidate.cls == k) {
            for (long period : candidate.periods) {
                leastPeriod = Math.min(leastPeriod, period);
                leastDeadline = Math.min(leastDeadline, candidate.deadline(period));
            }
        }
        if (busy <= leastPeriod && busy < leastDeadline) {
            return null; // one job of each task and the blocking: a busy period that ends before anything is due
        }
        test.clear();
        for (int i = 0; i < own.size; i++) {
            Entry e = own.all[i];
            if (e.cls == k && e != old) {
                addTasks(e, served);
            }
        }
        if (candidate.cls == k) {
            addTasks(candidate, served);
        }
        Outcome o = test.check(blocking, MAX_POINTS);
        if (o instanceof Schedulable) {
            return null;
        }
        String where = "link " + l.name() + ", " + c + ": ";
        String at;
        if (share == 0) {
            at = "the link's " + kbits(served) + (rate > 0 ? " left by HRT" : "") + " (" + c + " has no share)";
        } else if (served < share) {
            at = "the " + kbits(served) + " HRT leaves, less than the class's " + kbits(share);
        } else {
            at = "the class's " + kbits(served);
        }
        if (o instanceof Missed m) {
            String[] t = durations(m.intervalNanos(), m.demandNanos());
            String ahead = c == ServiceClass.HRT || burst == 0 ? "a frame already on the wire"
                    : "a frame already on the wire and one frame of each HRT flow";
            return where + String.format("in the first %s after a busy period starts the flows need %s of transmission,"
                    + " more than %s (at %s, after %s for %s)", t[0], t[1], t[0], at, durations(blocking, 0)[0], ahead);
        } else if (o instanceof Overloaded u) {
            return where + String.format("the flows need %.1f %% of %s, so a busy period never ends",
                    u.utilisation() * 100, at);
        } else {
            TooManyPoints p = (TooManyPoints) o;
            return where + (p.busyPeriodFound()
                    ? String.format("too many deadlines to check: %,d in a busy period of %s, at most %,d", p.points(),
                    durations(p.busyPeriodNanos(), 0)[0], p.maxPoints())
                    : String.format("too many deadlines to check: the busy period is longer than %s after %,d steps",
                    durations(p.busyPeriodNanos(), 0)[0], p.maxPoints()));
        }
    }

    /** A flow's frame bytes, one per task, if it is in class {@code cls}; else 0. */
    private static long wireOf(Entry e, int cls) {
        return e == null || e.cls != cls ? 0 : (long) e.wireBytes * e.periods.length;
    }

    private static long tasksOf(Entry e, int cls) {
        return e == null || e.cls != cls ? 0 : e.periods.length;
    }

    /** A flow's rate, bytes per second, if it is in class {@code cls}; else 0. */
    private static long rateOf(Entry e, int cls) {
        if (e == null || e.cls != cls) {
            return 0;
        }
        long sum = 0;
        for (long period : e.periods) {
            sum += rateOf(e.wireBytes, period);
        }
        return sum;
    }

    /** One task per period of a flow, its frame sent at {@code served} bytes per second. */
    private void addTasks(Entry e, long served) {
        long cost = nanos(e.wireBytes, served);
        for (long period : e.periods) {
            test.add(cost, period, e.deadline(period));
        }
    }

    /** Bytes per second of frames of {@code wireBytes} every {@code period} ns, rounded up. */
    private static long rateOf(int wireBytes, long period) {
        return ceilDiv(wireBytes * NANO, period);
    }

    /** Nanoseconds to send {@code bytes} at {@code bytesPerSecond}, rounded up, saturating. */
    static long nanos(long bytes, long bytesPerSecond) {
        if (bytes <= Long.MAX_VALUE / NANO) {
            return ceilDiv(bytes * NANO, bytesPerSecond);
        }
        BigInteger n = BigInteger.valueOf(bytes).multiply(BigInteger.valueOf(NANO))
                .add(BigInteger.valueOf(bytesPerSecond - 1)).divide(BigInteger.valueOf(bytesPerSecond));
        return n.bitLength() < 64 ? n.longValue() : Long.MAX_VALUE;
    }

    private static long ceilDiv(long a, long b) {
        return a / b + (a % b == 0 ? 0 : 1);
    }

    private static int index(ServiceClass c) {
        return c == ServiceClass.HRT ? HRT : c == ServiceClass.LRT ? LRT : -1;
    }

    private static String kbits(long bytesPerSecond) {
        return String.format("%.1f kbit/s", bytesPerSecond * 8 / 1000.0);
    }

    /**
     * Two durations in milliseconds with the fewest decimals (1, 3 or 6) that tell them apart, so
     * a demand one nanosecond over its interval does not read as equal to it.
     */
    static String[] durations(long a, long b) {
        for (int decimals : new int[] {1, 3}) {
            String x = ms(a, decimals);
            String y = ms(b, decimals);
            if (!x.equals(y) || a == b) {
                return new String[] {x, y};
            }
        }
        return new String[] {ms(a, 6), ms(b, 6)};
    }

    private static String ms(long nanos, int decimals) {
        return String.format("%,." + decimals + "f ms", nanos / 1e6);
    }
}
