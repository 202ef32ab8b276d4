package org.gridstat.node.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.netty.channel.EventLoopGroup;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.time.SystemClock;
import org.gridstat.node.FreeUdpPorts;

/**
 * HRT through a best-effort flood, on a router started for the run (issue 9, item 10): one
 * out-link limited to 10 Mbit/s, an HRT flow at 60 Hz within its reservation carrying a 50 ms
 * deadline in each header, and a BE flood at ten times the link's capacity on the same link. Each
 * run starts a new {@code gridstat router} process, so it sees the router's first flood on a cold
 * JVM, where a warmed router may behave differently.
 */
public final class FloodRun {
    static final long LINK_BYTES_PER_SECOND = 1_250_000; // 10 Mbit/s
    static final int HRT_HZ = 60;
    static final long HRT_BOUND_NANOS = 50_000_000L;
    static final double FLOOD_FACTOR = 10;
    /** Per-flow queues of the CCC testbed (thesis ch. 7). */
    static final int BUFFER_EVENTS = 20;
    private static final long HRT_VARIABLE = 1;
    private static final long BE_VARIABLE = 2;
    private static final String LINK = "sink";
    /** HRT samples of the unmeasured first run: 5 s. */
    private static final int WARM_UP_SAMPLES = 5 * HRT_HZ + 1;

    /**
     * @param seconds  the flood's length; the HRT flow sends {@code 60 × seconds + 1} samples over it
     * @param isolate  the router on CPU 1, this JVM on CPU 0
     * @param sharedPort HRT sent to the router's data port with the flood, instead of to its priority port
     * @param udpOffload the router's {@code udpOffload}
     */
    public record Settings(double seconds, int runs, int payloadBytes, boolean isolate, String routerTransport,
                           boolean routerBusyPoll, boolean sharedPort, boolean udpOffload) {
        int hrtSamples() {
            return (int) Math.round(seconds * HRT_HZ) + 1;
        }

        int frameBytes() {
            return 48 + payloadBytes;
        }

        double floodRate() {
            return FLOOD_FACTOR * LINK_BYTES_PER_SECOND / frameBytes();
        }
    }

    /**
     * One run's figures. Router counters are -1 where the router's log did not give them; kernel
     * drops -1 where the kernel did not tell.
     */
    public record Result(int run, long hrtSent, long hrtReceived, long hrtLateAtSink, long routerDeadlineMisses,
                         Histogram hrtLatency, double seconds, long beOffered, long beDelivered, long routerOverflow,
                         long kernelDrops, long[] hrtLatencyBySample, List<GcLog.Pause> routerGcPauses,
                         double stealPercent, long routerHrtHopP99Nanos, long routerHrtHopMaxNanos) {
        long hrtNeverArrived() {
            return Math.max(0, hrtSent - hrtReceived);
        }

        /** Samples that arrived after their deadline or never, by second of the run since the first sample. */
        Map<Integer, Integer> missesBySecond() {
            Map<Integer, Integer> out = new java.util.TreeMap<>();
            for (int i = 0; i < hrtLatencyBySample.length; i++) {
                long latency = hrtLatencyBySample[i];
                if (latency < 0 || latency > HRT_BOUND_NANOS) {
                    out.merge(i / HRT_HZ, 1, Integer::sum);
                }
            }
            return out;
        }
    }

    private final Settings settings;
    private final PrintStream out;

    public FloodRun(Settings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    public List<Result> run() throws Exception {
        if (settings.isolate()) {
            RouterProcess.pinThisProcess(RouterProcess.GENERATOR_CPUS);
        }
        out.printf("flood: one %.0f Mbit/s out-link; HRT %d Hz (%d samples, %d ms deadline in each header, assured %,d B/s);"
                        + " BE at %.0f x the link (%,.0f ev/s of %d-byte frames) for %.1f s; a new router process per run;"
                        + " HRT sent to %s%n",
                LINK_BYTES_PER_SECOND * 8 / 1e6, HRT_HZ, settings.hrtSamples(), HRT_BOUND_NANOS / 1_000_000,
                hrtAssured(), FLOOD_FACTOR, settings.floodRate(), settings.frameBytes(), settings.seconds(),
                settings.sharedPort() ? "the data port, with the flood" : "the router's priority port");
        List<Result> results = new ArrayList<>();
        EventLoopGroup generators = Transports.group("bench-generator");
        try {
            // The measuring side (generator, sink, HRT publisher) runs in this JVM; a first run would
            // measure it cold. Each measured run still starts a new router process.
            Result warm = once(0, generators, Math.min(settings.hrtSamples(), WARM_UP_SAMPLES));
            out.printf("(a %.0f s run to warm this JVM's generator, sink and publisher first, not counted: %d HRT misses"
                    + " at the router)%n", (warm.hrtSent() - 1) / (double) HRT_HZ, warm.routerDeadlineMisses());
            for (int run = 1; run <= settings.runs(); run++) {
                Result r = once(run, generators, settings.hrtSamples());
                results.add(r);
                print(r);
            }
        } finally {
            generators.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
        summary(results);
        return results;
    }

    private long hrtAssured() {
        return (long) HRT_HZ * settings.frameBytes();
    }

    /** The router's node file: the 10 Mbit/s link and the two flows. */
    String routerYaml(int routerPort, int priorityPort, int sinkPort) throws Exception {
        Map<String, Object> router = new LinkedHashMap<>();
        router.put("bind", "127.0.0.1:" + routerPort);
        if (priorityPort > 0) {
            router.put("priorityBind", "127.0.0.1:" + priorityPort);
        }
        router.put("socketBufferBytes", 8 << 20);
        router.put("transport", settings.routerTransport());
        router.put("busyPoll", settings.routerBusyPoll());
        router.put("udpOffload", settings.udpOffload());
        router.put("links", List.of(Map.of("name", LINK, "address", "127.0.0.1:" + sinkPort,
                "capacity", LINK_BYTES_PER_SECOND)));
        router.put("flows", List.of(
                Map.of("id", 1, "variable", HRT_VARIABLE, "link", LINK, "class", "HRT", "assured", hrtAssured(),
                        "minimum", hrtAssured(), "buffer", BUFFER_EVENTS),
                Map.of("id", 2, "variable", BE_VARIABLE, "link", LINK, "class", "BE", "buffer", BUFFER_EVENTS)));
        return new ObjectMapper(new YAMLFactory()).writeValueAsString(
                Map.of("node", Map.of("id", "bench-flood"), "statusRouter", router));
    }

    private Result once(int run, EventLoopGroup generators, int hrtSamples) throws Exception {
        int routerPort = FreeUdpPorts.pick();
        int priorityPort = settings.sharedPort() ? 0 : FreeUdpPorts.pick();
        int sinkPort = FreeUdpPorts.pick();
        int[] groupOf = new int[(int) BE_VARIABLE + 1];
        groupOf[(int) BE_VARIABLE] = 1;
        double seconds = (hrtSamples - 1) / (double) HRT_HZ;
        try (CountingSink sink = new CountingSink(sinkPort, groupOf, 2);
             RouterProcess router = RouterProcess.start(routerYaml(routerPort, priorityPort, sinkPort),
                     settings.isolate() ? RouterProcess.ROUTER_CPUS : null, (long) seconds + 120, true);
             LoadGenerator flood = new LoadGenerator(generators, new InetSocketAddress("127.0.0.1", routerPort), BE_VARIABLE,
                     settings.payloadBytes());
             Publisher publisher = Publisher.connect(new InetSocketAddress("127.0.0.1", routerPort),
                     priorityPort > 0 ? new InetSocketAddress("127.0.0.1", priorityPort) : null)) {
            Publication hrt = publisher.publication(VariableId.of(HRT_VARIABLE), ServiceClass.HRT,
                    Duration.ofNanos(HRT_BOUND_NANOS));
            sink.reset();
            sink.track(HRT_VARIABLE, hrtSamples);
            int gcLogBefore = router.gcLog().length();
            CpuSteal stealBefore = CpuSteal.now();
            // The flood and the HRT flow start together, on the router's first traffic.
            CompletableFuture<Long> flooded = CompletableFuture.supplyAsync(() -> {
                try {
                    return flood.run(settings.floodRate(), seconds, 1000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            });
            long hrtSent = publishHrt(hrt, hrtSamples);
            long beOffered = flooded.get((long) seconds * 2 + 30, TimeUnit.SECONDS);
            Thread.sleep(500); // the link drains what it queued
            long kernelDrops = UdpDrops.at(routerPort);
            CpuSteal stealAfter = CpuSteal.now();
            double steal = stealBefore == null || stealAfter == null ? Double.NaN : stealAfter.worstPercentSince(stealBefore);
            String gcLog = router.gcLog();
            List<GcLog.Pause> pauses = GcLog.pauses(gcLog.substring(Math.min(gcLogBefore, gcLog.length())));
            String counters = RouterLog.countersLine(router.stop());
            Map<String, Long> link = counters == null ? Map.of() : RouterLog.link(counters, LINK);
            if (counters == null) {
                out.printf("  (run %d: the router logged no counters as it stopped; misses are counted at the sink only)%n", run);
            }
            return new Result(run, hrtSent, sink.received(HRT_VARIABLE), sink.late(HRT_VARIABLE),
                    link.getOrDefault("deadlineMisses", -1L), sink.latencies(0), seconds, beOffered,
                    sink.received(BE_VARIABLE), link.getOrDefault("overflow", -1L), kernelDrops, sink.trackedLatencies(),
                    pauses, steal, link.getOrDefault("hrtHopP99Ns", -1L), link.getOrDefault("hrtHopMaxNs", -1L));
        }
    }

    /** Sends {@code samples} HRT samples at 60 Hz, each stamped when sent; returns how many the socket took. */
    private long publishHrt(Publication hrt, int samples) {
        byte[] payload = new byte[settings.payloadBytes()];
        long period = 1_000_000_000L / HRT_HZ;
        long start = System.nanoTime();
        long sent = 0;
        for (int i = 0; i < samples; i++) {
            long due = start + i * period + i / 3; // 60 Hz exactly: 16,666,666.33 ns
            for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
            if (hrt.publish(payload, 0, payload.length, SystemClock.INSTANCE.nanos())) {
                sent++;
            }
        }
        return sent;
    }

    private void print(Result r) {
        if (r.run() == 1) {
            out.printf("%n%4s  %-36s  %-28s  %s%n", "", "HRT", "HRT latency, source to sink", "BE");
            out.printf("%4s  %6s %8s %8s %11s  %8s %8s %8s   %10s %10s %10s %9s%n", "run", "sent", "received", "misses",
                    "late/lost", "p50", "p99", "max", "offered", "delivered", "overflow", "kernel");
            out.printf("%4s  %6s %8s %8s %11s  %8s %8s %8s   %10s %10s %10s %9s%n", "", "", "", "(router)", "(sink)",
                    "", "", "", "ev/s", "ev/s", "(router)", "drops");
        }
        Histogram h = r.hrtLatency();
        out.printf("%4d  %,6d %,8d %8s %,11d  %8s %8s %8s   %,10.0f %,10.0f %10s %9s%n", r.run(), r.hrtSent(), r.hrtReceived(),
                known(r.routerDeadlineMisses()), r.hrtLateAtSink() + r.hrtNeverArrived(), ms(h.getValueAtPercentile(50)),
                ms(h.getValueAtPercentile(99)), ms(h.getMaxValue()), r.beOffered() / r.seconds(),
                r.beDelivered() / r.seconds(), known(r.routerOverflow()), known(r.kernelDrops()));
        // Where the misses fell, and the first suspects: the router's collections, the hypervisor.
        StringBuilder when = new StringBuilder();
        r.missesBySecond().forEach((second, n) -> when.append(when.length() == 0 ? "" : ", ").append(second).append(" s: ")
                .append(n));
        double longest = r.routerGcPauses().stream().mapToDouble(GcLog.Pause::millis).max().orElse(0);
        out.printf("      late or lost by second of the run: %s; router GC pauses during the run: %d%s; steal %s;"
                        + " HRT in the router (queued to sent) p99 %s, max %s%n",
                when.length() == 0 ? "none" : when, r.routerGcPauses().size(),
                r.routerGcPauses().isEmpty() ? "" : String.format(" (longest %.1f ms)", longest),
                Double.isNaN(r.stealPercent()) ? "-" : String.format("%.1f %%", r.stealPercent()),
                r.routerHrtHopP99Nanos() < 0 ? "-" : ms(r.routerHrtHopP99Nanos()),
                r.routerHrtHopMaxNanos() < 0 ? "-" : ms(r.routerHrtHopMaxNanos()));
    }

    private void summary(List<Result> results) {
        if (results.isEmpty()) {
            return;
        }
        long sent = results.stream().mapToLong(Result::hrtSent).sum();
        long missedAtSink = results.stream().mapToLong(r -> r.hrtLateAtSink() + r.hrtNeverArrived()).sum();
        boolean routerKnown = results.stream().allMatch(r -> r.routerDeadlineMisses() >= 0);
        long missedAtRouter = results.stream().mapToLong(r -> Math.max(0, r.routerDeadlineMisses())).sum();
        long worstP99 = results.stream().mapToLong(r -> r.hrtLatency().getValueAtPercentile(99)).max().orElse(0);
        long worstMax = results.stream().mapToLong(r -> r.hrtLatency().getMaxValue()).max().orElse(0);
        double delivered = results.stream().mapToDouble(r -> r.beDelivered() * settings.frameBytes() * 8 / r.seconds() / 1e6)
                .average().orElse(0);
        out.printf("%nHRT over %d run(s): %,d samples, %s deadline misses at the router, %,d late or lost at the sink;"
                        + " worst p99 %s, worst max %s (deadline %d ms)%n", results.size(), sent,
                routerKnown ? String.format("%,d", missedAtRouter) : "unknown", missedAtSink, ms(worstP99), ms(worstMax),
                HRT_BOUND_NANOS / 1_000_000);
        out.printf("BE delivered %.2f Mbit/s on average of the link's %.0f (frame bytes; the router's deadline-miss"
                + " counter is the link's, and BE frames carry no deadline)%n", delivered, LINK_BYTES_PER_SECOND * 8 / 1e6);
    }

    private static String known(long value) {
        return value < 0 ? "-" : String.format("%,d", value);
    }

    private static String ms(long nanos) {
        return String.format("%.2f ms", nanos / 1e6);
    }
}
