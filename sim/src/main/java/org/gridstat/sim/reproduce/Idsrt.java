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
 * <p>The link's capacity is derived so that the broker's bandwidth test stops at 13 streams, as
 * iDSRT's admission did: a stream needs (128 + 28) bytes × 33⅓ Hz = 5,200 B/s of the HRT class's
 * 50 % share, so 13 need 67,600 B/s and a 14th 72,800 B/s; a share of 70,000 B/s admits 13 and
 * refuses the 14th: a 140,000 B/s (1.12 Mbit/s) link.
 */
public final class Idsrt {
    /** 1.12 Mbit/s: its HRT share (50 %, 70,000 B/s) holds 13 streams of 5,200 B/s and not 14. */
    public static final long CAPACITY = 140_000;
    /** Sample bytes (the status event frame). */
    public static final int SAMPLE_BYTES = 128;
    public static final long PERIOD_NANOS = 30_000_000L;
    /** Streams offered; admission takes the first 13. */
    public static final int STREAMS_TRIED = 16;
    /** The packet queue in front of the wire: a FIFO baseline's whole buffer, the scheduler's socket and NIC. */
    public static final int QUEUE_PACKETS = 64;
    /** Best effort: datagrams filling one packet each, from this many sources with exponential gaps. */
    public static final int BE_SOURCES = 4;
    public static final int BE_DATAGRAM_BYTES = 1472;
    /** Best effort's offered load in the published comparison: 70 % of the link, 118 % with 13 streams. */
    public static final double BEST_EFFORT_LOAD = 0.7;

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
                          double bestEffortLoad, long stepSeconds, long settleSeconds, long seed) {
        /**
         * The best-effort baseline: every packet in one FIFO, admission by bandwidth only, and a
         * network that knows no deadlines (a late sample is delivered late, as in iDSRT's baseline).
         */
        public static Variant bestEffort(double beLoad, long step, long settle) {
            return new Variant(LinkModel.Discipline.FIFO, Scenario.Admission.BANDWIDTH_ONLY, false, beLoad, step, settle, 1);
        }

        /** The router's EDF scheduler on hop deadlines, the broker's full admission. */
        public static Variant edf(double beLoad, long step, long settle) {
            return new Variant(LinkModel.Discipline.SCHEDULER, Scenario.Admission.FULL, true, beLoad, step, settle, 1);
        }

        /**
         * Every stream tried, the settled stretch, and one step more, not reported: the samples of
         * the settled stretch's end arrive in it, so none counts as missed for want of time.
         */
        public long durationNanos() {
            return (STREAMS_TRIED * stepSeconds + settleSeconds + stepSeconds) * S;
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
     * @param admitted    streams admitted, of {@link #STREAMS_TRIED}
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
                .link("apps", "sink", CAPACITY, MS, Topology.Builder.defaultShares())
                .build();
        SplittableRandom phases = new SplittableRandom(v.seed());
        List<Scenario.Variable> variables = new ArrayList<>();
        List<Scenario.Subscription> subscriptions = new ArrayList<>();
        for (int k = 1; k <= STREAMS_TRIED; k++) {
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
        LinkModel link = LinkModel.of(CAPACITY, MS).withDiscipline(v.discipline(), QUEUE_PACKETS);
        return new Scenario(v.deadlines() ? "idsrt" : "idsrt-best-effort", t, v.durationNanos(), v.stepSeconds() * S,
                v.seed(), v.admission(), Map.of("apps->sink", link), variables, subscriptions, be, List.of());
    }

    public static Figures run(Variant v) {
        SimulationResult r = Simulation.run(scenario(v));
        int admitted = 0;
        String refusal = "";
        for (int k = 1; k <= STREAMS_TRIED; k++) {
            String a = r.admissions().get(label(k));
            if ("admitted".equals(a)) {
                admitted++;
            } else if (refusal.isEmpty()) {
                refusal = a;
            }
        }
        long step = v.stepSeconds() * S;
        List<Stretch> steps = new ArrayList<>();
        for (long from = 0; from < STREAMS_TRIED * step; from += step) {
            steps.add(stretch(r, from, from + step));
        }
        long lastTried = STREAMS_TRIED * step;
        long settledEnd = lastTried + v.settleSeconds() * S;
        Stretch settled = stretch(r, lastTried, settledEnd);
        double worst = 0;
        for (int k = 1; k <= STREAMS_TRIED; k++) {
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
