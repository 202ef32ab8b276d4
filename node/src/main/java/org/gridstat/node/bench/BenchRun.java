package org.gridstat.node.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.netty.channel.EventLoopGroup;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.node.EquinoxNode;
import org.gridstat.node.FreeUdpPorts;
import org.gridstat.node.NodeConfig;

/**
 * The forwarding benchmark: the same load through a GridStat status router node, through a plain
 * Netty relay and through a C relay doing nothing but {@code recvmmsg}/{@code sendmmsg} (the
 * machine's per-datagram ceiling), on loopback. For each: the highest offered rate with less than
 * 0.1 % loss, then the latency percentiles at half the router's rate. The load is a
 * {@link Scenario}: one BE flow, or the mixed set of classes, filters and multicast.
 */
public final class BenchRun {
    static final double LOSS_LIMIT = 0.001;
    /** Bytes/s of the router's links in batched runs: 10 Gbit/s. */
    static final long BATCHED_LINK_CAPACITY = 1_250_000_000L;
    /** Events a flow buffers in batched runs, where a tick's events arrive in one datagram. */
    static final int BATCHED_BUFFER_EVENTS = 8192;
    private static final long THROUGHPUT_TICK_MICROS = 1000;
    private static final long LATENCY_TICK_MICROS = 100;
    static final String ROUTER = "gridstat router";
    static final String NETTY_RELAY = "plain Netty relay";
    static final String C_RELAY = "C relay (mmsg)";
    static final String DIRECT = "direct (no hop)";

    /**
     * The bench's knobs. With {@code isolate}, the router runs as its own process on CPU 1 and
     * this JVM (generator, sink, Netty relay) is pinned to CPU 0, so the router's latency is not its
     * neighbours' scheduling; the Netty relay then shares CPU 0, and its rate is not comparable (the
     * C relay runs on CPU 1, as the router does). {@code cRelay} adds the C relay target (skipped
     * with a message where gcc is missing); {@code mixed} runs {@link Scenario#mixed()}.
     */
    public record Settings(double stepSeconds, double latencySeconds, double startRate, double maxRate, int payloadBytes,
                           boolean isolate, String routerTransport, boolean wireCapture, boolean routerBusyPoll,
                           int rounds, boolean cRelay, boolean mixed, int batchBytes, boolean nats, boolean udpOffload) {
        public Settings(double stepSeconds, double latencySeconds, double startRate, double maxRate, int payloadBytes) {
            this(stepSeconds, latencySeconds, startRate, maxRate, payloadBytes, false, "auto", false, false, 1, false, false,
                    0, false, true);
        }

        /** A generous bound on the whole run, for the lifetime of the processes it starts. */
        long upperBoundSeconds() {
            int stepsPerSearch = (int) Math.ceil(Math.log(maxRate / startRate) / Math.log(1.5)) + 6;
            return (long) (rounds * 3 * stepsPerSearch * (stepSeconds + 0.5) + 4 * (latencySeconds + 2) + 300);
        }
    }

    /**
     * What one path achieved: its highest loss-free rate offered (NaN if not searched), what its
     * sinks received per second at that rate (fewer than offered where the router filters, more
     * where it multicasts), and its latency run.
     */
    public record Result(String target, double maxRate, double outRate, LatencyRun latency) {
    }

    /**
     * One path's latency run at the common rate: the sinks' send-to-receive histogram, the rate the
     * generator actually offered (a late tick skips what it owes beyond twice its share rather than
     * bursting), the bytes the forwarding threads allocated per event in (NaN if not measured), the
     * measuring JVM's collections and the largest share of a CPU's time the hypervisor stole (NaN if
     * unknown) meanwhile, with {@code --wire-capture} the hop's latency from kernel timestamps (null
     * without, or for no hop), the histogram per service class (mixed runs' router only, else empty),
     * and the frames the sinks should have got and did not.
     */
    public record LatencyRun(Histogram histogram, double rate, double offered, double bytesPerEvent, long collections,
                             double stealPercent, WireCapture.HopLatency wireHop, Map<ServiceClass, Histogram> byClass,
                             long expected, long lost) {
    }

    private record Step(double offered, double achieved, double out, double loss) {
    }

    /** A path under test: its generator, what its sinks should get, the threads that forward for it, the hop's ports. */
    private record Target(String name, LoadGenerator generator, ExpectedDelivery expected, List<CountingSink> sinks,
                          String forwarders, int hopIn, int hopOut, List<ServiceClass> classes) {
        void reset() {
            expected.reset();
            sinks.forEach(CountingSink::reset);
        }

        long received() {
            return sinks.stream().mapToLong(CountingSink::received).sum();
        }
    }

    private final Path bundles;
    private final Settings settings;
    private final PrintStream out;

    public BenchRun(Path bundles, Settings settings, PrintStream out) {
        this.bundles = bundles;
        this.settings = settings;
        this.out = out;
    }

    public List<Result> run() throws Exception {
        Scenario scenario = settings.mixed() ? Scenario.mixed() : Scenario.single();
        List<LoadGenerator.Stream> streams = scenario.streams();
        int routerPort = FreeUdpPorts.pick();
        int relayPort = FreeUdpPorts.pick();
        int cRelayPort = FreeUdpPorts.pick();
        List<Integer> routerSinkPorts = new ArrayList<>();
        for (int i = 0; i < scenario.links().size(); i++) {
            routerSinkPorts.add(FreeUdpPorts.pick());
        }
        int relaySinkPort = FreeUdpPorts.pick();
        int cRelaySinkPort = FreeUdpPorts.pick();
        int directSinkPort = FreeUdpPorts.pick();
        NodeConfig.StatusRouterSection router = new NodeConfig.StatusRouterSection();
        router.bind = "127.0.0.1:" + routerPort;
        List<Map<String, Object>> links = new ArrayList<>();
        for (int i = 0; i < scenario.links().size(); i++) {
            // Batched, the relays carry gigabits a second on loopback: the router's links are given
            // 10 Gbit/s (the default 1 Gbit/s would pace them below that) and packed to the same size.
            links.add(settings.batchBytes() > 0
                    ? Map.of("name", scenario.links().get(i), "address", "127.0.0.1:" + routerSinkPorts.get(i),
                            "mtu", settings.batchBytes(), "capacity", BATCHED_LINK_CAPACITY)
                    : Map.of("name", scenario.links().get(i), "address", "127.0.0.1:" + routerSinkPorts.get(i)));
        }
        router.links = links;
        router.flows = scenario.routerFlows();
        if (settings.batchBytes() > 0) { // a tick's batch arrives at once: room for several ticks' worth
            router.flows.forEach(f -> f.put("buffer", BATCHED_BUFFER_EVENTS));
        }
        router.socketBufferBytes = 8 << 20;
        router.transport = settings.routerTransport();
        router.busyPoll = settings.routerBusyPoll();
        router.udpOffload = settings.udpOffload();
        if (settings.isolate()) {
            RouterProcess.pinThisProcess(RouterProcess.GENERATOR_CPUS);
        }
        out.printf("scenario: %s%n", scenario.description());
        if (settings.batchBytes() > 0) {
            out.printf("batches: the generator packs the events each tick sends into datagrams of up to %,d bytes;"
                    + " the router's links pack to the same size%n", settings.batchBytes());
        }
        if (!settings.udpOffload()) {
            out.println("UDP offload off: the router and the generators send and receive each datagram on its own");
        } else if (settings.batchBytes() > 0) {
            out.println("UDP offload: the generators send each tick's equal datagrams segmented (UDP_SEGMENT); the router"
                    + " reads what the kernel coalesced (UDP_GRO) and sends its runs segmented; the sinks and relays read"
                    + " datagrams the kernel cut apart");
        }
        CRelay.Build cBuild = settings.cRelay() ? CRelay.compile() : null;
        if (cBuild != null && !cBuild.available()) {
            out.printf("C relay: skipped: %s%n", cBuild.skipReason());
        }
        int[] classOf = scenario.classOfVariable();
        int classes = scenario.classes().size();
        EventLoopGroup generators = Transports.group("bench-generator");
        EventLoopGroup relays = Transports.group("bench-relay");
        List<CountingSink> routerSinks = new ArrayList<>();
        try (AutoCloseable closeRouterSinks = () -> closeAll(routerSinks);
             CountingSink relaySink = new CountingSink(relaySinkPort);
             CountingSink cRelaySink = new CountingSink(cRelaySinkPort);
             CountingSink directSink = new CountingSink(directSinkPort);
             PlainRelay relay = new PlainRelay(relays, relayPort, new InetSocketAddress("127.0.0.1", relaySinkPort),
                     settings.batchBytes() > 0 ? settings.batchBytes() : 2048);
             CRelay cRelay = cBuild != null && cBuild.available() ? CRelay.start(cBuild, cRelayPort, cRelaySinkPort,
                     settings.isolate() ? RouterProcess.ROUTER_CPUS : null, settings.upperBoundSeconds()) : null;
             AutoCloseable routerNode = startRouter(router, scenario)) {
            for (int port : routerSinkPorts) {
                routerSinks.add(new CountingSink(port, classOf, classes));
            }
            ExpectedDelivery routerExpected = scenario.routerExpectation();
            ExpectedDelivery relayExpected = ExpectedDelivery.everyFrame(streams);
            ExpectedDelivery cRelayExpected = ExpectedDelivery.everyFrame(streams);
            ExpectedDelivery directExpected = ExpectedDelivery.everyFrame(streams);
            try (LoadGenerator toRouter = generator(generators, routerPort, streams, routerExpected);
                 LoadGenerator toRelay = generator(generators, relayPort, streams, relayExpected);
                 LoadGenerator toCRelay = generator(generators, cRelayPort, streams, cRelayExpected);
                 LoadGenerator toSink = generator(generators, directSinkPort, streams, directExpected)) {
                // An isolated router's threads are in another process: their allocation is not measured here.
                Target routerTarget = new Target(ROUTER, toRouter, routerExpected, routerSinks,
                        settings.isolate() ? null : "gridstat-bench-router", routerPort, routerSinkPorts.get(0),
                        settings.mixed() ? scenario.classes() : List.of());
                List<Target> searched = new ArrayList<>(List.of(routerTarget,
                        new Target(NETTY_RELAY, toRelay, relayExpected, List.of(relaySink), "bench-relay", relayPort,
                                relaySinkPort, List.of())));
                if (cRelay != null) {
                    searched.add(new Target(C_RELAY, toCRelay, cRelayExpected, List.of(cRelaySink), null, cRelayPort,
                            cRelaySinkPort, List.of()));
                }
                Target direct = new Target(DIRECT, toSink, directExpected, List.of(directSink), null, 0, 0, List.of());

                // Each round searches every target in turn; the best round counts for each. A machine's
                // noise can only lower a loss-free rate, and alternating spreads it over all targets.
                Map<String, Step> best = new LinkedHashMap<>();
                for (int round = 1; round <= settings.rounds(); round++) {
                    if (settings.rounds() > 1) {
                        out.printf("round %d of %d%n", round, settings.rounds());
                    }
                    for (Target t : searched) {
                        Step s = maxRate(t);
                        Step was = best.get(t.name());
                        if (was == null || s.achieved() > was.achieved()) {
                            best.put(t.name(), s);
                        }
                    }
                }
                // Latency of every path at one rate: half of what the router sustains.
                double routerMax = best.get(ROUTER).achieved();
                double rate = (routerMax > 0 ? routerMax : best.get(NETTY_RELAY).achieved()) / 2;
                toSink.run(rate / 2, settings.stepSeconds(), LATENCY_TICK_MICROS); // warm the direct path
                List<Result> results = new ArrayList<>();
                for (Target t : searched) {
                    Step s = best.get(t.name());
                    results.add(new Result(t.name(), s.achieved(), s.out(), latencyAt(t, rate)));
                }
                results.add(new Result(DIRECT, Double.NaN, Double.NaN, latencyAt(direct, rate)));
                report(results, scenario);
                if (settings.nats()) {
                    compareWithNats(best.get(ROUTER).achieved(), rate);
                }
                if (cRelay != null) {
                    CRelay.Stats stats = cRelay.stop();
                    if (stats != null) {
                        out.printf("C relay's own counts: %,d received, %,d sent on, %,d refused; %.1f datagrams per"
                                + " recvmmsg call on average%n", stats.received(), stats.sent(), stats.errors(), stats.perBatch());
                    } else {
                        out.printf("C relay's own counts: not reported (exit %s); it said: %s%n",
                                cRelay.process().isAlive() ? "-" : cRelay.process().exitValue(), cRelay.output());
                    }
                }
                return results;
            }
        } finally {
            generators.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            relays.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            if (cBuild != null) {
                CRelay.delete(cBuild);
            }
        }
    }

    /** Runs the same message size through a NATS server, if one is installed, and sets it beside the router's rate. */
    private void compareWithNats(double routerRate, double latencyRate) throws Exception {
        if (!NatsComparison.available()) {
            out.println("NATS: skipped: nats-server is not installed (scripts/setup --bench installs it)");
            return;
        }
        int bytes = 48 + settings.payloadBytes();
        out.printf("NATS server on loopback, Java client: one publisher sending %d-byte messages as fast as it can to one"
                + " subscriber%n", bytes);
        try (NatsComparison nats = NatsComparison.start()) {
            NatsComparison.Figures f = nats.throughput(2_000_000, bytes, latencyRate, settings.latencySeconds());
            String ratio = settings.isolate() ? "- (isolated: NATS shared CPU 0 with the generator and sinks)"
                    : f.deliveredPerSecond() > 0 && f.delivered() == f.sent()
                    ? String.format("%.2f", routerRate / f.deliveredPerSecond()) : "- (NATS lost messages)";
            out.printf("  %,.0f messages/s delivered (%,d sent, %,d delivered); router / NATS: %s%n",
                    f.deliveredPerSecond(), f.sent(), f.delivered(), ratio);
            out.printf("  latency at %,.0f messages/s (the router's latency rate, or half NATS's own if lower):"
                    + " p50 %s  p99 %s  max %s%n", f.latencyRate(),
                    us(f.latency().getValueAtPercentile(50)), us(f.latency().getValueAtPercentile(99)),
                    us(f.latency().getMaxValue()));
        }
    }

    private static void closeAll(List<CountingSink> sinks) throws java.io.IOException {
        for (CountingSink s : sinks) {
            s.close();
        }
    }

    /** The highest loss-free step: up by half each time until loss, then three bisections. */
    private Step maxRate(Target t) throws InterruptedException {
        out.printf("%s: searching for the highest rate with < %.1f %% loss (%d-byte frames)%n", t.name(), LOSS_LIMIT * 100,
                48 + settings.payloadBytes());
        step(t, settings.startRate() / 2); // warm-up, not counted
        Step best = null;
        double bad = Double.NaN;
        for (double rate = settings.startRate(); rate <= settings.maxRate(); rate *= 1.5) {
            Step s = step(t, rate);
            if (s.loss() >= LOSS_LIMIT) {
                bad = rate;
                break;
            }
            best = s;
        }
        if (best != null && !Double.isNaN(bad)) {
            double low = best.offered();
            double high = bad;
            for (int i = 0; i < 3; i++) {
                double mid = (low + high) / 2;
                Step s = step(t, mid);
                if (s.loss() < LOSS_LIMIT) {
                    best = s;
                    low = mid;
                } else {
                    high = mid;
                }
            }
        }
        if (best == null) {
            out.printf("  %s loses more than %.1f %% even at %.0f events/s%n", t.name(), LOSS_LIMIT * 100, settings.startRate());
            return new Step(0, 0, 0, 1);
        }
        if (best.achieved() < 0.95 * best.offered()) {
            out.printf("  (the load generator could not offer %.0f/s; the figure is the generator's, not %s's)%n",
                    best.offered(), t.name());
        }
        return best;
    }

    private AutoCloseable startRouter(NodeConfig.StatusRouterSection router, Scenario scenario) throws Exception {
        if (settings.isolate()) {
            Map<String, Object> section = new LinkedHashMap<>();
            section.put("bind", router.bind);
            section.put("socketBufferBytes", router.socketBufferBytes);
            section.put("transport", router.transport);
            section.put("busyPoll", router.busyPoll);
            section.put("udpOffload", router.udpOffload);
            section.put("links", router.links);
            section.put("flows", router.flows);
            String yaml = new ObjectMapper(new YAMLFactory()).writeValueAsString(
                    Map.of("node", Map.of("id", "bench-router"), "statusRouter", section));
            return RouterProcess.start(yaml, RouterProcess.ROUTER_CPUS, settings.upperBoundSeconds());
        }
        EquinoxNode node = EquinoxNode.start(bundles, NodeConfig.of("bench-router", null, router));
        if (node.awaitService("org.gridstat.statusrouter.api.StatusRouter", EquinoxNode.TIMEOUT_MILLIS) == null) {
            node.close();
            throw new IllegalStateException("the router did not start");
        }
        return node;
    }

    /** Latency at {@code rate}, and the allocation per event in of the target's forwarding threads. */
    private LatencyRun latencyAt(Target t, double rate) throws InterruptedException, java.io.IOException {
        // Start from an empty young generation, so garbage left by earlier phases (the relay's
        // above all) brings no collection into this window; those that still happen are reported.
        System.gc();
        t.reset();
        GcPauses gcBefore = GcPauses.now();
        CpuSteal stealBefore = CpuSteal.now();
        long before = t.forwarders() == null ? 0 : ThreadAllocation.bytes(t.forwarders());
        WireCapture capture = settings.wireCapture() && t.hopIn() != 0
                ? WireCapture.start(t.hopIn(), t.hopOut(), settings.isolate() ? RouterProcess.GENERATOR_CPUS : null) : null;
        long after;
        GcPauses gc;
        double steal;
        long sent;
        WireCapture.HopLatency wireHop;
        try {
            sent = t.generator().runSmooth(rate, settings.latencySeconds(), LATENCY_TICK_MICROS);
            Thread.sleep(300);
            after = t.forwarders() == null ? 0 : ThreadAllocation.bytes(t.forwarders());
            gc = GcPauses.now().since(gcBefore);
            CpuSteal stealAfter = CpuSteal.now();
            steal = stealBefore == null || stealAfter == null ? Double.NaN : stealAfter.worstPercentSince(stealBefore);
            wireHop = capture == null ? null : capture.stop();
        } finally {
            if (capture != null) {
                capture.close();
            }
        }
        double perEvent = t.forwarders() == null || before < 0 || sent == 0 ? Double.NaN : (double) (after - before) / sent;
        Histogram all = new Histogram(10_000_000_000L, 3);
        Map<ServiceClass, Histogram> byClass = new LinkedHashMap<>();
        for (int c = 0; c < t.classes().size(); c++) {
            Histogram h = new Histogram(10_000_000_000L, 3);
            for (CountingSink sink : t.sinks()) {
                h.add(sink.latencies(c));
            }
            byClass.put(t.classes().get(c), h);
        }
        for (CountingSink sink : t.sinks()) {
            all.add(sink.latencies());
        }
        return new LatencyRun(all, rate, sent / settings.latencySeconds(), perEvent, gc.count(), steal, wireHop, byClass,
                t.expected().expected(), t.expected().lost(t.sinks()));
    }

    private LoadGenerator generator(EventLoopGroup group, int port, List<LoadGenerator.Stream> streams,
                                    ExpectedDelivery expected) {
        return new LoadGenerator(group, new InetSocketAddress("127.0.0.1", port), streams, settings.payloadBytes(), expected,
                settings.batchBytes(), settings.udpOffload());
    }

    private Step step(Target t, double rate) throws InterruptedException {
        t.reset();
        long sent = t.generator().run(rate, settings.stepSeconds(), THROUGHPUT_TICK_MICROS);
        Thread.sleep(300);
        long expected = t.expected().expected();
        long lost = t.expected().lost(t.sinks());
        double loss = sent == 0 ? 1 : expected == 0 ? 0 : (double) lost / expected;
        Step s = new Step(rate, sent / settings.stepSeconds(), t.received() / settings.stepSeconds(), loss);
        out.printf("  offered %,10.0f/s  sent %,10.0f/s  loss %7.3f %%%s%n", rate, s.achieved(), loss * 100,
                settings.mixed() ? String.format("  out %,10.0f/s (%,d of %,d expected)", s.out(),
                        expected - lost, expected) : "");
        return s;
    }

    private void report(List<Result> results, Scenario scenario) {
        out.println();
        out.printf("%-18s %17s   latency at %,.0f ev/s, half the router's max (send to sink)%n", "target", "max rate in",
                results.get(0).latency().rate());
        out.printf("%-18s %17s   %9s %9s %9s %9s   %12s %4s %6s   %s%n", "", "(< 0.1 % loss)", "p50", "p99", "p99.9",
                "max", "offered", "GCs", "steal", "allocated per event in");
        for (Result r : results) {
            LatencyRun run = r.latency();
            Histogram h = run.histogram();
            String rate = Double.isNaN(r.maxRate()) ? String.format("%17s", "-") : String.format("%,12.0f ev/s", r.maxRate());
            out.printf("%-18s %s   %9s %9s %9s %9s   %,7.0f ev/s %4d %6s%s%n", r.target(), rate,
                    us(h.getValueAtPercentile(50)), us(h.getValueAtPercentile(99)), us(h.getValueAtPercentile(99.9)),
                    us(h.getMaxValue()), run.offered(), run.collections(),
                    Double.isNaN(run.stealPercent()) ? "-" : String.format("%.1f %%", run.stealPercent()),
                    Double.isNaN(run.bytesPerEvent()) ? "" : String.format("   %.2f B", run.bytesPerEvent()));
        }
        Result router = results.get(0);
        if (settings.mixed()) {
            out.printf("%nrouter, mixed: %,.0f ev/s in, %,.0f ev/s out on %d links at the loss-free rate; in the latency"
                            + " window %,d of %,d expected after filtering arrived%n", router.maxRate(), router.outRate(),
                    scenario.links().size(), router.latency().expected() - router.latency().lost(), router.latency().expected());
            out.printf("%-18s %9s %9s %9s %9s   %s%n", "router by class", "p50", "p99", "p99.9", "max", "events");
            for (Map.Entry<ServiceClass, Histogram> e : router.latency().byClass().entrySet()) {
                Histogram h = e.getValue();
                out.printf("%-18s %9s %9s %9s %9s   %,d%n", "  " + e.getKey(), us(h.getValueAtPercentile(50)),
                        us(h.getValueAtPercentile(99)), us(h.getValueAtPercentile(99.9)), us(h.getMaxValue()), h.getTotalCount());
            }
        }
        if (results.stream().anyMatch(r -> r.latency().wireHop() != null)) {
            out.printf("%nhop latency on the wire (kernel timestamps of each frame entering and leaving the hop)%n");
            out.printf("%-18s %17s   %9s %9s %9s %9s   %s%n", "", "frames", "p50", "p99", "p99.9", "max", "not out");
            for (Result r : results) {
                WireCapture.HopLatency hop = r.latency().wireHop();
                if (hop != null) {
                    Histogram h = hop.nanos();
                    out.printf("%-18s %,17d   %9s %9s %9s %9s   %,d%n", r.target(), h.getTotalCount(),
                            us(h.getValueAtPercentile(50)), us(h.getValueAtPercentile(99)),
                            us(h.getValueAtPercentile(99.9)), us(h.getMaxValue()), hop.unmatched());
                }
            }
        }
        out.println();
        for (Result r : results) {
            if (r.target().equals(ROUTER) || Double.isNaN(r.maxRate())) {
                continue;
            }
            if (r.maxRate() <= 0) {
                out.printf("router / %s: - (no loss-free rate for it)%n", ratioName(r.target()));
            } else if (settings.isolate() && r.target().equals(NETTY_RELAY)) {
                out.printf("router / %s: - (isolated: the Netty relay shared CPU 0 with the generator and sinks,"
                        + " the router had CPU 1)%n", ratioName(r.target()));
            } else {
                out.printf("router / %s: %.0f %% of the rate%s%n", ratioName(r.target()), 100 * router.maxRate() / r.maxRate(),
                        settings.isolate() && settings.routerBusyPoll() && r.target().equals(C_RELAY)
                                ? " (the busy-polling router's idle loop shared CPU 1 with the C relay)" : "");
            }
        }
    }

    /** The names the ratio lines have always used ("router / plain relay:"), so old outputs compare. */
    private static String ratioName(String target) {
        return target.equals(NETTY_RELAY) ? "plain relay" : target.equals(C_RELAY) ? "C relay" : target;
    }

    private static String us(long nanos) {
        return String.format("%.0f us", nanos / 1000.0);
    }
}
