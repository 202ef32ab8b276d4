package org.gridstat.broker.admission;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;
import org.gridstat.broker.admission.EdfDemandBound.Missed;
import org.gridstat.broker.admission.EdfDemandBound.Outcome;
import org.gridstat.broker.admission.EdfDemandBound.Overloaded;
import org.gridstat.broker.admission.EdfDemandBound.Schedulable;
import org.gridstat.broker.admission.EdfDemandBound.TooManyPoints;
import org.gridstat.broker.topology.Link;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.LinkSpec;
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
 * leaves a flow's class, periods, frame and tightest deadline as they are asks no test. An
 * instance keeps, per link, its HRT and LRT flows; single-threaded, like the controller.
 */
final class HopDeadlineTest {
    /** The most deadlines checked on a link and class before refusing as too costly to check. */
    static final int MAX_POINTS = EdfDemandBound.DEFAULT_MAX_POINTS;
    /** The largest datagram a link carries: the largest frame and its IPv4/UDP headers. */
    static final int MAX_DATAGRAM_BYTES = WireFormat.MAX_FRAME_LENGTH + SubscriptionRequest.PACKET_OVERHEAD;
    private static final long NANO = 1_000_000_000L;
    private static final int HRT = 0;
    private static final int LRT = 1;

    /** Per link: its HRT and LRT flows by variable; null where it has none. */
    private final Map<Long, SharedFlow>[][] flows;
    private final EdfDemandBound test = new EdfDemandBound();

    @SuppressWarnings("unchecked")
    HopDeadlineTest(int links) {
        flows = new Map[links][];
    }

    /**
     * The bytes that can be ahead of the first frame of a busy period and not be taken back: the
     * largest datagram, and the pacer's burst beyond one frame.
     */
    static long blockingBytes(Link l) {
        return MAX_DATAGRAM_BYTES + LinkSpec.defaultBurst(l.bandwidth()) - LinkSpec.MAX_FRAME_BYTES;
    }

    /**
     * Files a flow under the class it has now, having had {@code before} ({@code null}: the flow
     * was empty); call after every change of a flow on a link.
     */
    void moved(Link l, Long variable, SharedFlow f, ServiceClass before) {
        ServiceClass after = f.isEmpty() ? null : f.serviceClass();
        if (before == after) {
            return;
        }
        int from = index(before);
        if (from >= 0) {
            Map<Long, SharedFlow>[] own = flows[l.index()];
            own[from].remove(variable);
            if (own[HRT].isEmpty() && own[LRT].isEmpty()) {
                flows[l.index()] = null;
            }
        }
        int to = index(after);
        if (to >= 0) {
            Map<Long, SharedFlow>[] own = flows[l.index()];
            if (own == null) {
                own = flows[l.index()] = newPair();
            }
            own[to].put(variable, f);
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
        if (index(c) < 0) {
            return null;
        }
        SharedFlow trial = f == null ? new SharedFlow() : f;
        trial.add(r, deadline);
        try {
            String why = c == ServiceClass.HRT ? check(l, ServiceClass.HRT, trial) : null;
            if (why == null && (c == ServiceClass.LRT || hasOther(l, LRT, trial))) {
                why = check(l, ServiceClass.LRT, trial);
            }
            return why;
        } finally {
            trial.remove(r, deadline);
        }
    }

    private boolean hasOther(Link l, int cls, SharedFlow except) {
        Map<Long, SharedFlow>[] own = flows[l.index()];
        if (own == null) {
            return false;
        }
        return own[cls].size() > (own[cls].containsValue(except) ? 1 : 0);
    }

    /** The test of class {@code c} on link {@code l}, with {@code trial} in the class it has now. */
    private String check(Link l, ServiceClass c, SharedFlow trial) {
        long capacity = l.bandwidth();
        long burst = 0;
        long rate = 0;
        if (c == ServiceClass.LRT) {
            for (SharedFlow g : members(l, HRT, trial)) {
                int w = g.wireBytes();
                for (long period : g.periods()) {
                    burst = org.gridstat.core.time.Saturating.add(burst, w);
                    rate = org.gridstat.core.time.Saturating.add(rate, ceilDiv(w * NANO, period));
                }
            }
            if (rate >= capacity) {
                return String.format("link %s, LRT: the HRT flows may send %s, the whole link's %s, leaving LRT"
                        + " nothing", l.name(), kbits(rate), kbits(capacity));
            }
        }
        long share = l.classCapacity(c);
        long served = Math.min(share > 0 ? share : capacity, capacity - rate);
        long blocking = nanos(org.gridstat.core.time.Saturating.add(blockingBytes(l), burst), capacity - rate);
        test.clear();
        for (SharedFlow g : members(l, index(c), trial)) {
            long cost = nanos(g.wireBytes(), served);
            long deadline = g.hopDeadline();
            for (long period : g.periods()) {
                test.add(cost, period, deadline == SharedFlow.NO_DEADLINE ? period : deadline);
            }
        }
        Outcome o = test.check(blocking, MAX_POINTS);
        String where = "link " + l.name() + ", " + c + ": ";
        String at;
        if (share == 0) {
            at = "the link's " + kbits(served) + (rate > 0 ? " left by HRT" : "") + " (" + c + " has no share)";
        } else if (served < share) {
            at = "the " + kbits(served) + " HRT leaves, less than the class's " + kbits(share);
        } else {
            at = "the class's " + kbits(served);
        }
        if (o instanceof Schedulable) {
            return null;
        } else if (o instanceof Missed m) {
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

    /** The flows of a class on a link, {@code trial} among them if and only if it is in that class now. */
    private Iterable<SharedFlow> members(Link l, int cls, SharedFlow trial) {
        Map<Long, SharedFlow>[] own = flows[l.index()];
        java.util.ArrayList<SharedFlow> list = new java.util.ArrayList<>(own == null ? 1 : own[cls].size() + 1);
        if (own != null) {
            for (SharedFlow g : own[cls].values()) {
                if (g != trial) {
                    list.add(g);
                }
            }
        }
        if (index(trial.serviceClass()) == cls) {
            list.add(trial);
        }
        return list;
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

    @SuppressWarnings("unchecked")
    private static Map<Long, SharedFlow>[] newPair() {
        return new Map[] {new HashMap<Long, SharedFlow>(), new HashMap<Long, SharedFlow>()};
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
