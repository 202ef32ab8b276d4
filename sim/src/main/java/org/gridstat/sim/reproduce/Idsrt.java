package org.gridstat.sim.reproduce;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.sim.Simulation;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.metrics.FlowInterval;
import org.gridstat.sim.net.LinkModel;
import org.gridstat.sim.scenario.Scenario;

/**
 * The iDSRT experiment: real-time streams (a 128-byte sample every 30 ms, due one period after it
 * is taken) are added one by one on a link shared with best-effort traffic until admission
 * refuses one. Best effort for everyone ({@link LinkModel.Discipline#FIFO}, admission by bandwidth
 * only) against EDF with admission ({@link LinkModel.Discipline#SCHEDULER}, the broker's full test).
 *
 * <p>The link is chosen so that the broker's EDF test of hop deadlines stops at 13 streams, as
 * iDSRT's admission did, while bandwidth alone would take many more. On a 9.6 Mbit/s link
 * (1,200,000 B/s) whose HRT class is assured 10 % (120,000 B/s), a stream's frame (128 + 28 bytes)
 * takes 1.3 ms at the class's rate; the 30 ms bound splits into a hop budget of about 20.4 ms on the
 * link (its share of the path's propagation, transmission and queueing budgets), less the link's
 * 1 ms of propagation: a hop deadline of about 19.4 ms. Behind one best-effort datagram already on
 * the wire (1,500 bytes and the pacer's 50 µs burst, 1.3 ms at the link's rate), 13 streams due at
 * once need 16.9 + 1.3 = 18.2 ms, within it; a 14th would need 19.5 ms. Bandwidth would admit 23.
 *
 * <p>Best effort offers 110 % of the link: a FIFO stays full, and the streams behind it wait as long
 * as its 400 packets take (half a second), as iDSRT's best-effort baseline waited hundreds of
 * milliseconds; the router's scheduler keeps best effort in its own class.
 */
public final class Idsrt {
    /** 9.6 Mbit/s; its HRT class is assured {@link #HRT_PERCENT} %. */
    public static final long CAPACITY = 1_200_000;
    public static final int HRT_PERCENT = 10;
    /** Sample bytes (the status event frame). */
    public static final int SAMPLE_BYTES = 128;
    public static final long PERIOD_NANOS = 30_000_000L;
    /** Streams offered under EDF with admission; the deadline test takes the first 13. */
    public static final int STREAMS_TRIED = 16;
    /** Streams the baseline runs: as many as EDF admitted, since bandwidth alone would take more. */
    public static final int BASELINE_STREAMS = 13;
    /** The router's socket and NIC queue under its scheduler. */
    public static final int QUEUE_PACKETS = 64;
    /** The baseline's whole buffer: 400 packets of 1,500 bytes, half a second at the link's rate. */
    public static final int FIFO_PACKETS = 400;
    /** Best effort: datagrams filling one packet each, from this many sources with exponential gaps. */
    public static final int BE_SOURCES = 4;
    public static final int BE_DATAGRAM_BYTES = 1472;
    /** Best effort's offered load over the link's capacity: more than it carries. */
    public static final double BEST_EFFORT_LOAD = 1.1;

    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;

    private Idsrt() {
    }

    /**
     * One run: a stream is tried every {@code stepSeconds}, then all admitted ones run on for
     * {@code settleSeconds}; rows are one step wide.
     *
     * @param bestEffortLoad best effort's offered load over the link's capacity, in wire bytes
     * @param deadlines      whether samples carry their deadline into the network; without, no router
     *                       drops a late one and the subscriber sees how late it is
     */
    public record Variant(LinkModel.Discipline discipline, Scenario.Admission admission, boolean deadlines,
                          double bestEffortLoad, long stepSeconds, long settleSeconds, long seed, int streams) {
        /**
         * The best-effort baseline: every packet in one FIFO, admission by bandwidth only, and a
         * network that knows no deadlines (a late sample is delivered late, as in iDSRT's baseline).
         */
        public static Variant bestEffort(double beLoad, long step, long settle) {
            return new Variant(LinkModel.Discipline.FIFO, Scenario.Admission.BANDWIDTH_ONLY, false, beLoad, step, settle, 1,
                    BASELINE_STREAMS);
        }

        /** The router's EDF scheduler on hop deadlines, the broker's full admission. */
        public static Variant edf(double beLoad, long step, long settle) {
            return new Variant(LinkModel.Discipline.SCHEDULER, Scenario.Admission.FULL, true, beLoad, step, settle, 1,
                    STREAMS_TRIED);
        }

        /**
         * Every stream tried, the settled stretch, and one step more, not reported: the samples of
         * the settled stretch's end arrive in it, so none counts as missed for want of time.
         */
        public long durationNanos() {
            return (streams * stepSeconds + settleSeconds + stepSeconds) * S;
        }
    }

    /**
     * The real-time streams over one stretch of time: those admitted and active then, together.
     * Samples are offered when published and delivered when they arrive, so a stretch's figures
     * are exact only over its whole; {@code late} and {@code routerDrops} count events exactly.
     *
     * @param late        deliveries after their deadline
     * @param routerDrops samples the routers dropped: past their deadline, or for a full flow buffer
     */
    public record Stretch(long fromNanos, long toNanos, int streams, long offered, long onTime, long delivered,
                          long late, long routerDrops, double meanLatencyMs, double maxLatencyMs) {
        /** Samples not delivered by their deadline (lost, dropped late, or arrived late), over those offered. */
        public double missRatio() {
            return offered == 0 ? 0 : Math.max(0, offered - onTime) / (double) offered;
        }
    }

    /**
     * What a run measured.
     *
     * @param admitted    streams admitted, of those the variant tries
     * @param refusal     the broker's reason for the first refusal, or empty
     * @param steps       one row per step, the streams added so far
     * @param settled     the stretch after the last stream was tried: every admitted stream at once
     * @param worstStream the admitted stream with the most misses in the settled stretch, as a ratio
     */
    public record Figures(Variant variant, int admitted, String refusal, List<Stretch> steps, Stretch settled,
                          double worstStreamMissRatio, double bestEffortGoodput) {
    }

    static String label(int k) {
        return String.format("rt%02d", k);
    }

    public static Scenario scenario(Variant v) {
        Topology t = Topology.builder()
                .router("apps", 1_000_000, MS, "")
                .router("sink", 1_000_000, MS, "")
                .link("apps", "sink", CAPACITY, MS, Map.of(ServiceClass.HRT, HRT_PERCENT, ServiceClass.LRT, 30,
                        ServiceClass.BE, 100 - 30 - HRT_PERCENT))
                .build();
        SplittableRandom phases = new SplittableRandom(v.seed());
        List<Scenario.Variable> variables = new ArrayList<>();
        List<Scenario.Subscription> subscriptions = new ArrayList<>();
        for (int k = 1; k <= v.streams(); k++) {
            long at = (k - 1) * v.stepSeconds() * S;
            // Each application samples on its own phase; it starts once its subscription is in.
            variables.add(new Scenario.Variable(label(k), "apps", SAMPLE_BYTES, PERIOD_NANOS, ServiceClass.HRT, "",
                    at + MS + phases.nextLong(PERIOD_NANOS), 0, v.deadlines() ? PERIOD_NANOS : 0, 0));
            subscriptions.add(new Scenario.Subscription(label(k), label(k), "sink", "rt", QosSpec.builder()
                    .interval(Duration.ofNanos(PERIOD_NANOS)).latencyBound(Duration.ofNanos(PERIOD_NANOS))
                    .serviceClass(ServiceClass.HRT).build(), at));
        }
        double perSecond = v.bestEffortLoad() * CAPACITY / (BE_DATAGRAM_BYTES + 28);
        List<Scenario.RawSource> be = new ArrayList<>();
        for (int i = 1; i <= BE_SOURCES; i++) {
            be.add(new Scenario.RawSource("be" + i, "apps", "sink", List.of(BE_DATAGRAM_BYTES),
                    Math.round(1e9 * BE_SOURCES / perSecond), true, 0, 0, 20));
        }
        LinkModel link = LinkModel.of(CAPACITY, MS).withDiscipline(v.discipline(),
                v.discipline() == LinkModel.Discipline.FIFO ? FIFO_PACKETS : QUEUE_PACKETS);
        return new Scenario(v.deadlines() ? "idsrt" : "idsrt-best-effort", t, v.durationNanos(), v.stepSeconds() * S,
                v.seed(), v.admission(), Map.of("apps->sink", link), variables, subscriptions, be, List.of());
    }

    public static Figures run(Variant v) {
        SimulationResult r = Simulation.run(scenario(v));
        int admitted = 0;
        String refusal = "";
        for (int k = 1; k <= v.streams(); k++) {
            String a = r.admissions().get(label(k));
            if ("admitted".equals(a)) {
                admitted++;
            } else if (refusal.isEmpty()) {
                refusal = a;
            }
        }
        long step = v.stepSeconds() * S;
        List<Stretch> steps = new ArrayList<>();
        for (long from = 0; from < v.streams() * step; from += step) {
            steps.add(stretch(r, from, from + step));
        }
        long lastTried = v.streams() * step;
        long settledEnd = lastTried + v.settleSeconds() * S;
        Stretch settled = stretch(r, lastTried, settledEnd);
        double worst = 0;
        for (int k = 1; k <= v.streams(); k++) {
            String label = label(k);
            long offered = 0;
            long onTime = 0;
            for (FlowInterval row : r.rows()) {
                if (row.subscription().equals(label) && row.fromNanos() >= lastTried && row.toNanos() <= settledEnd) {
                    offered += row.offered();
                    onTime += row.delivered() - row.late();
                }
            }
            if (offered > 0) {
                worst = Math.max(worst, Math.max(0, offered - onTime) / (double) offered);
            }
        }
        long beSent = 0;
        long beDelivered = 0;
        for (SimulationResult.RawFigures f : r.raw().values()) {
            beSent += f.sent();
            beDelivered += f.delivered();
        }
        return new Figures(v, admitted, refusal, steps, settled, worst, beSent == 0 ? 0 : beDelivered / (double) beSent);
    }

    /** The admitted streams' rows within [from, to), together. */
    static Stretch stretch(SimulationResult r, long from, long to) {
        long offered = 0;
        long onTime = 0;
        long delivered = 0;
        long late = 0;
        long drops = 0;
        double latencySum = 0;
        long max = 0;
        java.util.Set<String> active = new java.util.HashSet<>();
        for (FlowInterval row : r.rows()) {
            if (row.fromNanos() < from || row.toNanos() > to || !row.subscription().startsWith("rt")) {
                continue;
            }
            if (row.offered() > 0 || row.delivered() > 0) {
                active.add(row.subscription());
            }
            offered += row.offered();
            delivered += row.delivered();
            onTime += row.delivered() - row.late();
            late += row.late();
            drops += row.deadlineMisses() + row.overflowDrops();
            latencySum += (double) row.latencyMeanNanos() * row.delivered();
            max = Math.max(max, row.latencyMaxNanos());
        }
        return new Stretch(from, to, active.size(), offered, onTime, delivered, late, drops,
                delivered == 0 ? 0 : latencySum / delivered / 1e6, max / 1e6);
    }
}
