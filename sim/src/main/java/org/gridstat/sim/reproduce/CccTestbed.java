package org.gridstat.sim.reproduce;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.gridstat.broker.install.FlowRates;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.sim.Simulation;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.metrics.FlowInterval;
import org.gridstat.sim.scenario.Scenario;

/**
 * The testbed of the cooperative congestion control (CCC) thesis, chapter 7, without congestion
 * control: two substations A and B, each with an HRT PMU, an LRT PMU and a best-effort application
 * behind its gateway ({@code gwA}, {@code gwB}); both gateways feed one overlay router
 * ({@code overlay}), which feeds the control center's gateway ({@code gwCC}), where the control
 * center subscribes to all six streams. Samples of 260 bytes (the status event frame, 288 on the
 * wire); 20-event flow buffers; deadlines HRT 50 ms, LRT 100 ms. All publishers start at 20 Hz;
 * A's HRT PMU goes to 40 Hz at 40 s, B's at 60 s, both to 50 Hz at 80 s and 60 Hz at 90 s.
 *
 * <p>Every variable is declared, and subscribed to, at 20 Hz: the broker reserves each flow's
 * starting rate (20 × 288 = 5,760 B/s), as the thesis's flows start at their minimum rate, and
 * the PMUs then publish above it. The rate filter lets every sample through: a link whose routed
 * intervals include the publisher's declared own (50 ms) has nothing to thin out, whatever the
 * PMU's actual rate. A flow may borrow up to twice its reservation (the broker's ceiling), and no
 * more: no one reassigns bandwidth, which is what CCC would do.
 *
 * <p>The bottleneck is {@code overlay->gwCC}; its capacity is derived from the published "up to
 * 50 %" HRT misses without CCC: in 90-100 s each HRT PMU offers 60 × 288 = 17,280 B/s, and the four
 * other flows take their 4 × 5,760 = 23,040 B/s (they stay within their reservations, which the
 * scheduler serves first). For each HRT flow to get half of its 60 Hz, 30 Hz or 8,640 B/s, the
 * link must carry 23,040 + 2 × 8,640 = 40,320 B/s (322.56 kbit/s). Its class shares are HRT 40 %,
 * LRT 30 %, BE 30 % (16,128 / 12,096 / 12,096 B/s), so that admission takes both flows of every
 * class (11,520 B/s each) at 20 Hz.
 *
 * <p>Admission is by bandwidth only, as the thesis's broker reserved it: an EDF demand-bound test
 * of the hop deadlines would refuse both HRT flows and one of the LRT flows here (one 1,500-byte
 * frame already on the 322 kbit/s wire blocks 37 ms, more than the 35.9 ms HRT hop deadline), and
 * the experiment is about flows that outgrow what they were admitted at anyway.
 */
public final class CccTestbed {
    /** The derived bottleneck: 40,320 B/s (322.56 kbit/s). */
    public static final long BOTTLENECK = 40_320;
    /** The other links: 10 Mbit/s, never congested here. */
    public static final long ACCESS = 1_250_000;
    public static final int SAMPLE_BYTES = 260;
    public static final long HRT_DEADLINE = 50_000_000L;
    public static final long LRT_DEADLINE = 100_000_000L;
    /** Best effort has no deadline; its subscription's bound only judges lateness in the report. */
    public static final long BE_BOUND = 1_000_000_000L;
    /** The published report intervals, in seconds. */
    public static final long[] INTERVALS = {0, 40, 60, 80, 90, 100};
    public static final String[] STREAMS = {"A-HRT", "B-HRT", "A-LRT", "B-LRT", "A-BE", "B-BE"};

    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;
    private static final long HZ20 = S / 20;

    private CccTestbed() {
    }

    /**
     * One stream over one published interval: {@code offered} and {@code onTime} count the samples
     * taken in it (on time whenever they arrived, as the real-time testbed counts them), {@code delivered}
     * and the latencies the deliveries that arrived in it.
     */
    public record Row(String stream, long fromSeconds, long toSeconds, long offered, long delivered, long onTime,
                      long overflowDrops, long deadlineDrops, double meanLatencyMs, double maxLatencyMs) {
        /** Samples not delivered by their deadline (dropped for a full buffer, dropped late, or late), over those offered. */
        public double missRatio() {
            return offered == 0 ? 0 : Math.max(0, offered - onTime) / (double) offered;
        }

        public double overflowRatio() {
            return offered == 0 ? 0 : overflowDrops / (double) offered;
        }
    }

    public record Figures(long bottleneck, Map<String, String> admissions, List<Row> rows,
                          List<SimulationResult.CongestionDecision> decisions, List<SimulationResult.Notice> notices,
                          Map<String, Long> heldAtSource) {
        public Row row(String stream, long fromSeconds) {
            return rows.stream().filter(r -> r.stream().equals(stream) && r.fromSeconds() == fromSeconds).findFirst()
                    .orElseThrow();
        }
    }

    /** The testbed over the published 100 s, with the derived bottleneck. */
    public static Scenario scenario() {
        return scenario(BOTTLENECK, 100);
    }

    /**
     * @param bottleneck {@code overlay->gwCC}'s capacity, bytes per second
     * @param seconds    the seconds reported: the timeline is the published one, so 100 covers it
     *                   all; the run goes one second further, unreported, so the last samples of
     *                   the last interval arrive (or are dropped) before it ends
     */
    public static Scenario scenario(long bottleneck, long seconds) {
        return scenario(bottleneck, seconds, Scenario.Congestion.OFF);
    }

    /**
     * The thesis's flow rates in this testbed: minimum rates HRT 100 %, LRT 50 % (2,600 of
     * 5,200 B/s), best effort 11.5 % (600 of 5,200 B/s) of the 20 Hz reservation; HRT flows may
     * reach four times it (60 Hz is three), the others twice.
     */
    public static final FlowRates THESIS_RATES = FlowRates.DEFAULT.with(ServiceClass.HRT, 1.0, 4.0)
            .with(ServiceClass.LRT, 0.5, 2.0).with(ServiceClass.BE, 0.115, 2.0);

    /** The estimator's period with congestion control unless a run says otherwise: a tenth of the thesis's second. */
    public static final long PERIOD = 100 * MS;

    /**
     * The thesis's rates with congestion control on (with its notices to the publishers) or off,
     * the estimator at {@code periodNanos}, weight 0.5.
     */
    public static Scenario.Congestion congestion(boolean control, long periodNanos) {
        return congestion(control, control, periodNanos);
    }

    /** The same, with the notices on or off apart: {@code control} without {@code notices} reassigns locally only. */
    public static Scenario.Congestion congestion(boolean control, boolean notices, long periodNanos) {
        return new Scenario.Congestion(control, notices, new EstimatorSettings(periodNanos, 0.5), THESIS_RATES);
    }

    /** The testbed with {@code congestion}'s estimator, rates and control. */
    public static Scenario scenario(long bottleneck, long seconds, Scenario.Congestion congestion) {
        Map<ServiceClass, Integer> shares = new EnumMap<>(ServiceClass.class);
        shares.put(ServiceClass.HRT, 40);
        shares.put(ServiceClass.LRT, 30);
        shares.put(ServiceClass.BE, 30);
        Topology t = Topology.builder()
                .router("gwA", 1_000_000, MS, "")
                .router("gwB", 1_000_000, MS, "")
                .router("overlay", 1_000_000, MS, "")
                .router("gwCC", 1_000_000, MS, "")
                .link("gwA", "overlay", ACCESS, MS, Topology.Builder.defaultShares())
                .link("gwB", "overlay", ACCESS, MS, Topology.Builder.defaultShares())
                .link("overlay", "gwCC", bottleneck, MS, shares)
                .build();
        List<Scenario.Variable> variables = new ArrayList<>();
        List<Scenario.Subscription> subscriptions = new ArrayList<>();
        for (String stream : STREAMS) {
            String substation = stream.substring(0, 1);
            ServiceClass c = ServiceClass.valueOf(stream.substring(2));
            long deadline = c == ServiceClass.HRT ? HRT_DEADLINE : c == ServiceClass.LRT ? LRT_DEADLINE : 0;
            // PMUs sample on the same UTC grid: every publisher starts at 1 ms, once the flows are in.
            // The substation is the variable's correlation group (what CCC would choose victims by).
            variables.add(new Scenario.Variable(stream, "gw" + substation, SAMPLE_BYTES, HZ20, c, substation, MS, 0,
                    deadline, 0));
            subscriptions.add(new Scenario.Subscription(stream, stream, "gwCC", "cc", QosSpec.builder()
                    .interval(Duration.ofNanos(HZ20)).latencyBound(Duration.ofNanos(deadline > 0 ? deadline : BE_BOUND))
                    .serviceClass(c).build(), 0));
        }
        List<Scenario.Change> timeline = List.of(
                new Scenario.RateChange(40 * S, "A-HRT", interval(40)),
                new Scenario.RateChange(60 * S, "B-HRT", interval(40)),
                new Scenario.RateChange(80 * S, "A-HRT", interval(50)),
                new Scenario.RateChange(80 * S, "B-HRT", interval(50)),
                new Scenario.RateChange(90 * S, "A-HRT", interval(60)),
                new Scenario.RateChange(90 * S, "B-HRT", interval(60)));
        return new Scenario("ccc-testbed", t, (seconds + 1) * S, S, 1, Scenario.Admission.BANDWIDTH_ONLY, Map.of(),
                variables, subscriptions, List.of(), timeline, congestion);
    }

    /** A rate's interval rounded to the nanosecond, as a scenario file's {@code rate} gives it (60 Hz: 16,666,667 ns). */
    public static long interval(int hz) {
        return Math.round(1e9 / hz);
    }

    public static Figures run(long bottleneck, long seconds) {
        return run(bottleneck, seconds, Scenario.Congestion.OFF);
    }

    public static Figures run(long bottleneck, long seconds, Scenario.Congestion congestion) {
        SimulationResult r = Simulation.run(scenario(bottleneck, seconds, congestion));
        List<Row> rows = new ArrayList<>();
        for (String stream : STREAMS) {
            for (int i = 0; i + 1 < INTERVALS.length && INTERVALS[i] < seconds; i++) {
                rows.add(row(r, stream, INTERVALS[i], Math.min(seconds, INTERVALS[i + 1])));
            }
        }
        return new Figures(bottleneck, r.admissions(), rows, r.decisions(), r.notices(), r.heldAtSource());
    }

    public static Figures run() {
        return run(BOTTLENECK, 100);
    }

    /** The report's one-second rows of one stream within [from, to) seconds, together. */
    public static Row row(SimulationResult r, String stream, long from, long to) {
        long offered = 0;
        long delivered = 0;
        long onTime = 0;
        long overflow = 0;
        long late = 0;
        double latencySum = 0;
        long max = 0;
        for (FlowInterval row : r.rows()) {
            if (row.subscription().equals(stream) && row.fromNanos() >= from * S && row.toNanos() <= to * S) {
                offered += row.offered();
                delivered += row.delivered();
                onTime += row.offeredOnTime();
                overflow += row.overflowDrops();
                late += row.deadlineMisses();
                latencySum += (double) row.latencyMeanNanos() * row.delivered();
                max = Math.max(max, row.latencyMaxNanos());
            }
        }
        return new Row(stream, from, to, offered, delivered, onTime, overflow, late,
                delivered == 0 ? 0 : latencySum / delivered / 1e6, max / 1e6);
    }
}
