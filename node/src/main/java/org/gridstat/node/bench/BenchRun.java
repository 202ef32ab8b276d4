package org.gridstat.node.bench;

import io.netty.channel.EventLoopGroup;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.gridstat.node.EquinoxNode;
import org.gridstat.node.FreeUdpPorts;
import org.gridstat.node.NodeConfig;

/**
 * The forwarding benchmark: the same load through a GridStat status router node and through a
 * plain Netty relay, on loopback. For each: the highest offered rate with less than 0.1 % loss,
 * then the latency percentiles at half that rate.
 */
public final class BenchRun {
    static final double LOSS_LIMIT = 0.001;
    private static final long VARIABLE = 1;
    private static final long THROUGHPUT_TICK_MICROS = 1000;
    private static final long LATENCY_TICK_MICROS = 100;

    /**
     * The bench's knobs. With {@code isolate}, the router runs as its own process on CPU 1 and
     * this JVM (generator, sink, relay) is pinned to CPU 0, so the router's latency is not its
     * neighbours' scheduling; the relay then shares CPU 0, and its rate is not comparable.
     */
    public record Settings(double stepSeconds, double latencySeconds, double startRate, double maxRate, int payloadBytes,
                           boolean isolate, String routerTransport, boolean wireCapture, boolean routerBusyPoll,
                           int rounds) {
        public Settings(double stepSeconds, double latencySeconds, double startRate, double maxRate, int payloadBytes) {
            this(stepSeconds, latencySeconds, startRate, maxRate, payloadBytes, false, "auto", false, false, 1);
        }
    }

    /** What one path achieved: its highest loss-free rate (NaN if not searched) and its latency run. */
    public record Result(String target, double maxRate, LatencyRun latency) {
    }

    /**
     * One path's latency run at the common rate: the sink's send-to-receive histogram, the rate the
     * generator actually offered (a late tick skips what it owes beyond twice its share rather than
     * bursting), the bytes the forwarding threads allocated per event (NaN if not measured), the
     * measuring JVM's collections and the largest share of a CPU's time the hypervisor stole (NaN if
     * unknown) meanwhile, and with {@code --wire-capture} the hop's latency from kernel timestamps
     * (null without, or for no hop).
     */
    public record LatencyRun(Histogram histogram, double rate, double offered, double bytesPerEvent, long collections,
                             double stealPercent, WireCapture.HopLatency wireHop) {
    }

    private record Step(double offered, double achieved, double loss) {
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
        int routerPort = FreeUdpPorts.pick();
        int relayPort = FreeUdpPorts.pick();
        int routerSinkPort = FreeUdpPorts.pick();
        int relaySinkPort = FreeUdpPorts.pick();
        int directSinkPort = FreeUdpPorts.pick();
        EventLoopGroup generators = Transports.group("bench-generator");
        EventLoopGroup relays = Transports.group("bench-relay");
        NodeConfig.StatusRouterSection router = new NodeConfig.StatusRouterSection();
        router.bind = "127.0.0.1:" + routerPort;
        router.links = List.of(Map.of("name", "sink", "address", "127.0.0.1:" + routerSinkPort));
        router.flows = List.of(Map.of("id", 1, "variable", VARIABLE, "link", "sink", "class", "BE", "buffer", 256));
        router.socketBufferBytes = 8 << 20;
        router.transport = settings.routerTransport();
        router.busyPoll = settings.routerBusyPoll();
        if (settings.isolate()) {
            RouterProcess.pinThisProcess(RouterProcess.GENERATOR_CPUS);
        }
        try (CountingSink routerSink = new CountingSink(routerSinkPort);
             CountingSink relaySink = new CountingSink(relaySinkPort);
             CountingSink directSink = new CountingSink(directSinkPort);
             PlainRelay relay = new PlainRelay(relays, relayPort, new InetSocketAddress("127.0.0.1", relaySinkPort));
             AutoCloseable routerNode = startRouter(router, routerPort, routerSinkPort)) {
            try (LoadGenerator toRouter = generator(generators, routerPort);
                 LoadGenerator toRelay = generator(generators, relayPort);
                 LoadGenerator toSink = generator(generators, directSinkPort)) {
                // Each round searches the router, then the relay; the best round counts for each. A
                // machine's noise can only lower a loss-free rate, and alternating spreads it over both.
                double routerMax = 0;
                double relayMax = 0;
                for (int round = 1; round <= settings.rounds(); round++) {
                    if (settings.rounds() > 1) {
                        out.printf("round %d of %d%n", round, settings.rounds());
                    }
                    routerMax = Math.max(routerMax, maxRate("gridstat router", toRouter, routerSink));
                    relayMax = Math.max(relayMax, maxRate("plain Netty relay", toRelay, relaySink));
                }
                // Latency of all three paths at one rate: half of what the router sustains.
                double rate = (routerMax > 0 ? routerMax : relayMax) / 2;
                toSink.run(rate / 2, settings.stepSeconds(), LATENCY_TICK_MICROS); // warm the direct path
                // An isolated router's threads are in another process: their allocation is not measured here.
                LatencyRun viaRouter = latencyAt(toRouter, routerSink, rate, settings.isolate() ? null : "gridstat-bench-router",
                        routerPort, routerSinkPort);
                LatencyRun plain = latencyAt(toRelay, relaySink, rate, "bench-relay", relayPort, relaySinkPort);
                LatencyRun direct = latencyAt(toSink, directSink, rate, null, 0, 0);
                List<Result> results = List.of(new Result("gridstat router", routerMax, viaRouter),
                        new Result("plain Netty relay", relayMax, plain), new Result("direct (no hop)", Double.NaN, direct));
                report(results);
                return results;
            }
        } finally {
            generators.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
            relays.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private double maxRate(String name, LoadGenerator generator, CountingSink sink) throws InterruptedException {
        out.printf("%s: searching for the highest rate with < %.1f %% loss (%d-byte frames)%n", name, LOSS_LIMIT * 100,
                48 + settings.payloadBytes());
        step(generator, sink, settings.startRate() / 2); // warm-up, not counted
        Step best = null;
        double bad = Double.NaN;
        for (double rate = settings.startRate(); rate <= settings.maxRate(); rate *= 1.5) {
            Step s = step(generator, sink, rate);
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
                Step s = step(generator, sink, mid);
                if (s.loss() < LOSS_LIMIT) {
                    best = s;
                    low = mid;
                } else {
                    high = mid;
                }
            }
        }
        if (best == null) {
            out.printf("  %s loses more than %.1f %% even at %.0f events/s%n", name, LOSS_LIMIT * 100, settings.startRate());
            return 0;
        }
        if (best.achieved() < 0.95 * best.offered()) {
            out.printf("  (the load generator could not offer %.0f/s; the figure is the generator's, not %s's)%n",
                    best.offered(), name);
        }
        return best.achieved();
    }

    private AutoCloseable startRouter(NodeConfig.StatusRouterSection router, int routerPort, int sinkPort)
            throws Exception {
        if (settings.isolate()) {
            return RouterProcess.start(String.join("\n",
                    "node:", "  id: bench-router", "statusRouter:", "  bind: 127.0.0.1:" + routerPort,
                    "  socketBufferBytes: " + router.socketBufferBytes, "  transport: " + router.transport,
                    "  busyPoll: " + router.busyPoll,
                    "  links:", "    - name: sink", "      address: 127.0.0.1:" + sinkPort,
                    "  flows:", "    - {id: 1, variable: " + VARIABLE + ", link: sink, class: BE, buffer: 256}", ""), RouterProcess.ROUTER_CPUS);
        }
        EquinoxNode node = EquinoxNode.start(bundles, NodeConfig.of("bench-router", null, router));
        if (node.awaitService("org.gridstat.statusrouter.api.StatusRouter", EquinoxNode.TIMEOUT_MILLIS) == null) {
            node.close();
            throw new IllegalStateException("the router did not start");
        }
        return node;
    }

    /** Latency at {@code rate}, and the allocation per event of the threads named {@code forwarders*}. */
    private LatencyRun latencyAt(LoadGenerator generator, CountingSink sink, double rate, String forwarders,
                              int hopInPort, int hopOutPort) throws InterruptedException, java.io.IOException {
        // Start from an empty young generation, so garbage left by earlier phases (the relay's
        // above all) brings no collection into this window; those that still happen are reported.
        System.gc();
        sink.reset();
        GcPauses gcBefore = GcPauses.now();
        CpuSteal stealBefore = CpuSteal.now();
        long before = forwarders == null ? 0 : ThreadAllocation.bytes(forwarders);
        WireCapture capture = settings.wireCapture() && hopInPort != 0
                ? WireCapture.start(hopInPort, hopOutPort, settings.isolate() ? RouterProcess.GENERATOR_CPUS : null) : null;
        long after;
        GcPauses gc;
        double steal;
        double offered;
        WireCapture.HopLatency wireHop;
        try {
            offered = generator.runSmooth(rate, settings.latencySeconds(), LATENCY_TICK_MICROS) / settings.latencySeconds();
            Thread.sleep(300);
            after = forwarders == null ? 0 : ThreadAllocation.bytes(forwarders);
            gc = GcPauses.now().since(gcBefore);
            CpuSteal stealAfter = CpuSteal.now();
            steal = stealBefore == null || stealAfter == null ? Double.NaN : stealAfter.worstPercentSince(stealBefore);
            wireHop = capture == null ? null : capture.stop();
        } finally {
            if (capture != null) {
                capture.close();
            }
        }
        long events = sink.received();
        double perEvent = forwarders == null || before < 0 || events == 0 ? Double.NaN : (double) (after - before) / events;
        return new LatencyRun(sink.latencies(), rate, offered, perEvent, gc.count(), steal, wireHop);
    }

    private LoadGenerator generator(EventLoopGroup group, int port) {
        return new LoadGenerator(group, new InetSocketAddress("127.0.0.1", port), VARIABLE, settings.payloadBytes());
    }

    private Step step(LoadGenerator generator, CountingSink sink, double rate) throws InterruptedException {
        sink.reset();
        long sent = generator.run(rate, settings.stepSeconds(), THROUGHPUT_TICK_MICROS);
        Thread.sleep(300);
        long received = sink.received();
        double loss = sent == 0 ? 1 : Math.max(0, (double) (sent - received) / sent);
        Step s = new Step(rate, sent / settings.stepSeconds(), loss);
        out.printf("  offered %,10.0f/s  sent %,10.0f/s  loss %7.3f %%%n", rate, s.achieved(), loss * 100);
        return s;
    }

    private void report(List<Result> results) {
        out.println();
        out.printf("%-18s %17s   latency at %,.0f ev/s, half the router's max (send to sink)%n", "target", "max rate",
                results.get(0).latency().rate());
        out.printf("%-18s %17s   %9s %9s %9s %9s   %12s %4s %6s   %s%n", "", "(< 0.1 % loss)", "p50", "p99", "p99.9",
                "max", "offered", "GCs", "steal", "allocated per event");
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
        Result router = results.get(0);
        Result relay = results.get(1);
        if (settings.isolate()) {
            out.printf("%n(isolated: the router had CPU 1 to itself; the relay shared CPU 0 with the generator and"
                    + " sink, so the rates do not compare)%n");
        } else if (relay.maxRate() > 0) {
            out.printf("%nrouter / plain relay: %.0f %% of the rate%n", 100 * router.maxRate() / relay.maxRate());
        }
    }

    private static String us(long nanos) {
        return String.format("%.0f us", nanos / 1000.0);
    }
}
