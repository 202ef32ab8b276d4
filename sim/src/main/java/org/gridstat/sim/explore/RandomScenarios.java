package org.gridstat.sim.explore;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.sim.net.LinkModel;
import org.gridstat.sim.scenario.Scenario;

/**
 * Random scenarios, each a pure function of its seed: a connected topology of 2 to 7 routers,
 * variables of every class at PMU-like rates, subscriptions asked at random times (some the
 * broker must refuse), best-effort cross traffic, links under each discipline, some lossy or
 * with outages, and a timeline of cuts, crashes, rate changes and teardowns.
 */
public final class RandomScenarios {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;
    private static final long[] BANDWIDTHS = {125_000, 250_000, 1_250_000, 12_500_000};
    private static final long[] INTERVALS = {10 * MS, S / 60, 20 * MS, S / 30, 50 * MS, 100 * MS};
    private static final ServiceClass[] CLASSES = {ServiceClass.HRT, ServiceClass.LRT, ServiceClass.BE};

    private RandomScenarios() {
    }

    public static Scenario generate(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 2 + r.nextInt(6);
        Topology.Builder b = Topology.builder();
        for (int i = 0; i < n; i++) {
            b.router("r" + i, 1_000_000, (1 + r.nextInt(5)) * MS, null);
        }
        List<int[]> pairs = new ArrayList<>();
        for (int i = 1; i < n; i++) {
            pairs.add(new int[] {r.nextInt(i), i});
        }
        for (int extra = r.nextInt(n); extra > 0; extra--) {
            int a = r.nextInt(n);
            int c = r.nextInt(n);
            if (a != c && pairs.stream().noneMatch(p -> (p[0] == a && p[1] == c) || (p[0] == c && p[1] == a))) {
                pairs.add(new int[] {a, c});
            }
        }
        for (int[] p : pairs) {
            b.between("r" + p[0], "r" + p[1], BANDWIDTHS[r.nextInt(BANDWIDTHS.length)], r.nextInt(11) * MS,
                    Topology.Builder.defaultShares());
        }
        Topology topology = b.build();
        long duration = (2 + r.nextInt(7)) * S;

        Map<String, LinkModel> links = new LinkedHashMap<>();
        for (Link l : topology.links()) {
            int kind = r.nextInt(8);
            LinkModel base = LinkModel.of(l.bandwidth(), l.delayNanos());
            if (kind == 0) {
                links.put(l.name(), base.withDiscipline(r.nextBoolean() ? LinkModel.Discipline.FIFO
                        : LinkModel.Discipline.DATAGRAM_FIFO, 10 + r.nextInt(60)));
            } else if (kind == 1) {
                links.put(l.name(), new LinkModel(l.bandwidth(), l.delayNanos(), LinkModel.DEFAULT_MTU,
                        LinkModel.DEFAULT_QUEUE_PACKETS, LinkModel.Discipline.SCHEDULER, r.nextDouble() * 0.05,
                        LinkModel.BurstLoss.NONE, 0, 0));
            } else if (kind == 2) {
                links.put(l.name(), new LinkModel(l.bandwidth(), l.delayNanos(), LinkModel.DEFAULT_MTU,
                        LinkModel.DEFAULT_QUEUE_PACKETS, LinkModel.Discipline.SCHEDULER, 0,
                        new LinkModel.BurstLoss(0.01, 0.3, 0.8), 0, 0));
            } else if (kind == 3) {
                links.put(l.name(), new LinkModel(l.bandwidth(), l.delayNanos(), LinkModel.DEFAULT_MTU,
                        LinkModel.DEFAULT_QUEUE_PACKETS, LinkModel.Discipline.SCHEDULER, 0, LinkModel.BurstLoss.NONE,
                        (1 + r.nextInt(3)) * S, (10 + r.nextInt(200)) * MS));
            } else if (kind == 4) { // an ATM line at a small MTU, fragments arriving over an access line
                LinkModel.Discipline d = LinkModel.Discipline.values()[r.nextInt(LinkModel.Discipline.values().length)];
                links.put(l.name(), new LinkModel(l.bandwidth(), l.delayNanos(), 576, 10 + r.nextInt(60), d, 0,
                        LinkModel.BurstLoss.NONE, 0, 0, LinkModel.Framing.ATM, 1_250_000 + r.nextInt(12_500_000)));
            }
        }

        List<Scenario.Variable> variables = new ArrayList<>();
        int vars = 1 + r.nextInt(6);
        for (int i = 0; i < vars; i++) {
            long interval = INTERVALS[r.nextInt(INTERVALS.length)];
            ServiceClass c = CLASSES[r.nextInt(CLASSES.length)];
            long jitter = r.nextInt(3) == 0 ? r.nextLong(interval / 4) : 0;
            long offset = r.nextInt(12) == 0 ? (r.nextBoolean() ? 1 : -1) * (1 + r.nextInt(20)) * S : 0;
            int bytes = r.nextInt(3) == 0 ? 48 + r.nextInt(1472 - 48 + 1) : 260;
            variables.add(new Scenario.Variable("v" + i, "r" + r.nextInt(n), bytes, interval, c, "g" + r.nextInt(3),
                    (1 + r.nextInt(100)) * MS, jitter, (10 + r.nextInt(190)) * MS, offset));
        }

        List<Scenario.Subscription> subscriptions = new ArrayList<>();
        int subs = r.nextInt(9);
        for (int i = 0; i < subs; i++) {
            Scenario.Variable v = variables.get(r.nextInt(vars));
            long interval = r.nextInt(6) == 0 ? v.intervalNanos() / 2 : v.intervalNanos() * (1 + r.nextInt(3));
            interval = Math.max(interval, QosSpec.MIN_INTERVAL.toNanos());
            ServiceClass c = r.nextInt(4) == 0 ? CLASSES[r.nextInt(CLASSES.length)] : v.serviceClass();
            QosSpec qos = QosSpec.builder().interval(Duration.ofNanos(interval))
                    .latencyBound(Duration.ofMillis(10 + r.nextInt(190))).paths(1 + (r.nextInt(4) == 0 ? 1 : 0))
                    .serviceClass(c).build();
            long at = r.nextInt(3) == 0 ? r.nextLong(duration / 2) : 0;
            subscriptions.add(new Scenario.Subscription("s" + i, v.name(), "r" + r.nextInt(n), "cc" + r.nextInt(2), qos,
                    at));
        }

        // A publisher stamps the tightest bound of its subscriptions as each event's deadline.
        for (int i = 0; i < variables.size(); i++) {
            Scenario.Variable v = variables.get(i);
            long tightest = subscriptions.stream().filter(s -> s.variable().equals(v.name()))
                    .mapToLong(s -> s.qos().latencyBoundNanos()).min().orElse(v.latencyBoundNanos());
            variables.set(i, new Scenario.Variable(v.name(), v.router(), v.frameBytes(), v.intervalNanos(), v.serviceClass(),
                    v.correlationGroup(), v.startNanos(), v.jitterNanos(), tightest, v.clockOffsetNanos()));
        }

        List<Scenario.RawSource> raw = new ArrayList<>();
        for (int i = r.nextInt(3); i > 0; i--) {
            Link l = topology.links().get(r.nextInt(topology.links().size()));
            List<Integer> sizes = List.of(100 + r.nextInt(2900), 100 + r.nextInt(1400));
            raw.add(new Scenario.RawSource("x" + i, l.from().id(), l.to().id(), sizes, (1 + r.nextInt(20)) * MS,
                    r.nextBoolean(), r.nextLong(duration / 2), r.nextBoolean() ? 0 : duration / 2 + r.nextLong(duration / 2),
                    1 + r.nextInt(40)));
        }

        List<Scenario.Change> timeline = new ArrayList<>();
        for (int i = r.nextInt(5); i > 0; i--) {
            long at = r.nextLong(duration);
            switch (r.nextInt(5)) {
                case 0 -> {
                    Link l = topology.links().get(r.nextInt(topology.links().size()));
                    timeline.add(new Scenario.LinkState(at, l.name(), false));
                    timeline.add(new Scenario.LinkState(Math.min(duration, at + r.nextLong(S)), l.name(), true));
                }
                case 1 -> {
                    String router = "r" + r.nextInt(n);
                    timeline.add(new Scenario.RouterState(at, router, false));
                    timeline.add(new Scenario.RouterState(Math.min(duration, at + r.nextLong(S)), router, true));
                }
                case 2 -> {
                    Scenario.Variable v = variables.get(r.nextInt(vars));
                    long to = INTERVALS[r.nextInt(INTERVALS.length)];
                    if (v.jitterNanos() < to) {
                        timeline.add(new Scenario.RateChange(at, v.name(), to));
                    }
                }
                case 3 -> {
                    if (!subscriptions.isEmpty()) {
                        timeline.add(new Scenario.Unsubscribe(at, subscriptions.get(r.nextInt(subscriptions.size())).label()));
                    }
                }
                default -> {
                    if (!raw.isEmpty()) {
                        Scenario.RawSource x = raw.get(r.nextInt(raw.size()));
                        timeline.add(new Scenario.RawRateChange(at, x.label(), (1 + r.nextInt(20)) * MS));
                    }
                }
            }
        }
        return new Scenario("explore-" + seed, topology, duration, S, seed, Scenario.Admission.FULL, links, variables,
                subscriptions, raw, timeline);
    }
}
