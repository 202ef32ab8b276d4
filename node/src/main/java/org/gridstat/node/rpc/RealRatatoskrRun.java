package org.gridstat.node.rpc;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.install.FlowRates;
import org.gridstat.broker.control.ControlLimits;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.RouterNode;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.Endpoint;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.node.FreeUdpPorts;
import org.gridstat.rpc.call.ParamType;
import org.gridstat.rpc.call.ReplyCode;
import org.gridstat.rpc.client.CallPolicy;
import org.gridstat.rpc.client.CallResult;
import org.gridstat.rpc.client.CallStatistics;
import org.gridstat.rpc.pubsub.RatatoskrClient;
import org.gridstat.rpc.pubsub.RatatoskrServer;
import org.gridstat.rpc.pubsub.TwoWayPlan;
import org.gridstat.rpc.server.Operation;
import org.gridstat.rpc.server.PermissionTable;
import org.gridstat.rpc.transport.Redundancy;
import org.gridstat.sim.reproduce.RatatoskrNetwork;
import org.gridstat.statusrouter.api.EmbeddedRouter;
import org.gridstat.statusrouter.api.RouterCounters;
import org.gridstat.core.sched.LinkStatistics;

/**
 * The Ratatoskr evaluation on real status routers: the 13 routers of {@link RatatoskrNetwork}
 * ({@link EmbeddedRouter}s on loopback, each link emulating its 1 ms of delay, the omission
 * {@code f} per packet and, when asked, outages), a {@link QosBroker} that admits the four RPC
 * variables ({@code rpc/request/k1|k2} from {@code cc} to {@code sub}'s delivery link
 * {@code server}, {@code rpc/reply/k1|k2} back to {@code cc}'s {@code client}, over 1 and 2
 * disjoint paths), a {@link RatatoskrServer} at {@code sub} exporting one actuator and a
 * {@link RatatoskrClient} at {@code cc} calling it, one call after another, with the redundancy
 * given. What it reports is what the evaluation compares with the analysis: the early success
 * (answered on the first try), the call times, and that the actuator ran once per call executed.
 *
 * <p>The machine running it is the network's: on a loaded one, a late copy is late, and a try
 * not acknowledged within twice the latency bound is tried again (no longer early). Calls get a
 * deadline of {@link #CALL_DEADLINE_NANOS} so that a slow machine makes calls slow, not failed.
 */
public final class RealRatatoskrRun {
    /** A call's deadline: generous, so that every try the policy allows can be made on a slow machine. */
    public static final long CALL_DEADLINE_NANOS = 10_000_000_000L;
    static final String OPERATION = "actuator.operate";
    private static final String CALLER = "operator1";
    private static final long STARTUP_NANOS = 30_000_000_000L;

    /**
     * @param statistics       the measured calls (not the warm-up)
     * @param executions       times the actuator ran, warm-up included
     * @param executedCalls    calls answered {@link ReplyCode#EXECUTED}, warm-up included: at-most-once
     *                         holds when it equals {@code executions} and every call was answered
     * @param analysis         {@link RatatoskrNetwork#earlySuccess} for the run's omission, outages and redundancy
     * @param lateFirstAnswers measured calls answered by their first try after their second was sent
     *                         (sooner than a second try's answer can come): early on an unloaded machine
     * @param expiredFrames    frames the routers dropped during the measured calls because they could
     *                         no longer arrive within their latency bound: the machine's lateness, not omission
     * @param omittedFrames    frames the routers' link emulation lost during the measured calls
     * @param routerRefusals   what the routers refused of the broker (their own emulated links win)
     * @param framesDropped    frames the client's and server's agents dropped for a full queue
     */
    public record Result(CallStatistics statistics, long executions, long executedCalls, double analysis,
                         long lateFirstAnswers, long expiredFrames, long omittedFrames, List<String> routerRefusals,
                         long framesDropped) {
        /** The early-success rate's standard error under the analysis, for the measured calls. */
        public double sigma() {
            long n = statistics.calls();
            return n == 0 ? 0 : Math.sqrt(analysis * (1 - analysis) / n);
        }

        /**
         * The share of measured calls the machine's lateness may have kept from being early, at
         * most: each expired frame and each late first answer spoils one call at most.
         */
        public double lateShare() {
            long n = statistics.calls();
            return n == 0 ? 0 : Math.min(1, (lateFirstAnswers + expiredFrames) / (double) n);
        }
    }

    private RealRatatoskrRun() {
    }

    /**
     * Runs {@code warmUp} then {@code calls} sequential calls with redundancy {@code r} over the
     * evaluation's network on loopback. Everything it starts it stops.
     *
     * @param omission         each inter-router link's loss probability per packet
     * @param outageEveryNanos mean time between outages of each directed inter-router link, 0 for none
     * @param outageForNanos   each outage's length
     * @param seed             the links' emulation draws
     * @param log              told what is being started and how the calls go, or {@code null}
     */
    public static Result run(double omission, long outageEveryNanos, long outageForNanos, Redundancy r, int warmUp,
                             int calls, long seed, PrintStream log) throws Exception {
        if (omission < 0 || omission >= 1) {
            throw new IllegalArgumentException("omission is a probability below 1, got " + omission);
        }
        if (outageEveryNanos < 0 || outageForNanos < 0 || (outageEveryNanos > 0 && outageForNanos == 0)) {
            throw new IllegalArgumentException("outages: a positive mean time between them and a positive length, or none");
        }
        if (r.paths() > 2) {
            throw new IllegalArgumentException("the evaluation's network has 2 disjoint paths, not " + r.paths());
        }
        if (warmUp < 0 || calls < 1) {
            throw new IllegalArgumentException("at least one measured call, and no negative warm-up");
        }
        List<AutoCloseable> open = new ArrayList<>();
        try {
            Map<String, Integer> ports = new LinkedHashMap<>();
            Topology given = RatatoskrNetwork.topology();
            for (RouterNode n : given.routers()) {
                ports.put(n.id(), FreeUdpPorts.pick());
            }
            Topology topology = withAddresses(given, ports);
            Duration bound = Duration.ofNanos(RatatoskrNetwork.LATENCY_BOUND);
            Duration interval = Duration.ofNanos(RatatoskrNetwork.INTERVAL);
            int[] levels = RatatoskrNetwork.PATH_LEVELS;

            AtomicLong executions = new AtomicLong();
            RatatoskrServer server = RatatoskrServer.start(TwoWayPlan.server("rpc", bound, interval, levels),
                    loopback(ports.get(RatatoskrNetwork.SERVER_ROUTER)), loopback(0),
                    PermissionTable.parse(List.of(CALLER + ": " + OPERATION)), null);
            open.add(server);
            server.export(Operation.of(OPERATION, List.of(ParamType.INTEGER), args -> executions.incrementAndGet()));
            RatatoskrClient client = RatatoskrClient.connect(TwoWayPlan.caller("rpc", bound, interval, levels),
                    loopback(ports.get(RatatoskrNetwork.CLIENT_ROUTER)), loopback(0), CALLER);
            open.add(client);

            QosBroker broker = new QosBroker(topology, loopback(0), ControlLimits.DEFAULT, true, FlowRates.DEFAULT);
            open.add(broker);
            Map<String, EmbeddedRouter> routers = new LinkedHashMap<>();
            for (RouterNode n : topology.routers()) {
                EmbeddedRouter router = EmbeddedRouter.start(routerProperties(topology, n, ports, omission,
                        outageEveryNanos, outageForNanos, seed, client.listenAddress().getPort(),
                        server.listenAddress().getPort(), broker.controlAddress().getPort()));
                open.add(router);
                routers.put(n.id(), router);
            }
            say(log, "started a broker on 127.0.0.1:" + broker.controlAddress().getPort() + " and routers " + ports
                    + " (links: 1 ms, loss " + omission + (outageEveryNanos > 0 ? ", outages of " + outageForNanos / 1e6
                    + " ms every " + outageEveryNanos / 1e6 + " ms" : "") + ")");
            await(() -> routers.keySet().stream().allMatch(broker.control()::connected), "the routers connect to the broker");
            admit(broker, levels, log);
            await(() -> routers.keySet().stream().allMatch(id -> broker.control().inSync(id)),
                    "the routers acknowledge their flows");

            CallPolicy policy = CallPolicy.of(r, CALL_DEADLINE_NANOS);
            CallStatistics measured = new CallStatistics();
            long executed = 0;
            long lateFirst = 0;
            // A second try's answer comes a round trip over path A after the try at the soonest.
            long secondAnswerSoonest = r.timeoutNanos(RatatoskrNetwork.LATENCY_BOUND)
                    + 2 * RatatoskrNetwork.PATH_A_LINKS * RatatoskrNetwork.LINK_DELAY;
            long[] before = null;
            long started = System.nanoTime();
            for (int i = 0; i < warmUp + calls; i++) {
                if (i == warmUp) {
                    say(log, warmUp + " warm-up calls made");
                    before = lateness(routers.values());
                    started = System.nanoTime();
                }
                CallResult result = client.call(OPERATION, List.of((long) i), policy).result()
                        .get(CALL_DEADLINE_NANOS + 10_000_000_000L, TimeUnit.NANOSECONDS);
                if (result.code() == ReplyCode.EXECUTED) {
                    executed++;
                }
                if (i >= warmUp) {
                    measured.add(result);
                    if (result.code() != null && result.attempts() > 1 && result.elapsedNanos() < secondAnswerSoonest) {
                        lateFirst++;
                    }
                }
            }
            Thread.sleep(100); // a replay still on its way runs nothing, but is counted before the figures are read
            long[] after = lateness(routers.values());
            double analysis = RatatoskrNetwork.earlySuccess(omission, RatatoskrNetwork.up(outageEveryNanos, outageForNanos),
                    r.paths(), r.copies());
            long expired = after[0] - before[0];
            long omitted = after[1] - before[1];
            say(log, String.format("%d calls in %.1f s: early success %.4f (analysis %.4f), %.2f retries per call,"
                            + " call time mean %.2f ms, max %.2f ms; outcomes %s; frames lost to omission %d, expired"
                            + " late %d; first tries answered after the second was sent %d", calls,
                    (System.nanoTime() - started) / 1e9, measured.earlySuccessRate(), analysis, measured.retriesPerCall(),
                    measured.meanMillis(), measured.maxMillis(), measured.outcomes(), omitted, expired, lateFirst));
            return new Result(measured, executions.get(), executed, analysis, lateFirst, expired, omitted,
                    broker.control().refusals(), client.agent().dropped() + server.agent().dropped());
        } finally {
            // routers (before the broker they would retry), broker, client, server
            for (int i = open.size() - 1; i >= 0; i--) {
                try {
                    open.get(i).close();
                } catch (Exception e) {
                    say(log, "closing " + open.get(i) + ": " + e);
                }
            }
        }
    }

    /**
     * Runs from the command line: {@code omission paths copies calls [warmUp [seed [outageEveryMs
     * outageForMs]]]}, e.g. {@code 0.04 1 2 600}; temporal copies 2 ms apart, 20 retries.
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: RealRatatoskrRun omission paths copies calls [warmUp [seed [outageEveryMs outageForMs]]]");
            System.exit(2);
        }
        int copies = Integer.parseInt(args[2]);
        Redundancy r = new Redundancy(Integer.parseInt(args[1]), copies, copies > 1 ? 2 * RatatoskrNetwork.MS : 0, 20);
        long every = args.length > 7 ? Long.parseLong(args[6]) * RatatoskrNetwork.MS : 0;
        long during = args.length > 7 ? Long.parseLong(args[7]) * RatatoskrNetwork.MS : 0;
        Result result = run(Double.parseDouble(args[0]), every, during, r, args.length > 4 ? Integer.parseInt(args[4]) : 50,
                Integer.parseInt(args[3]), args.length > 5 ? Long.parseLong(args[5]) : 1, System.out);
        System.out.printf("early success %.4f, analysis %.4f (sigma %.4f, late share %.4f); executions %d, calls executed %d;"
                        + " call time mean %.2f ms, sd %.2f ms, max %.2f ms; frames dropped by the agents %d%n",
                result.statistics().earlySuccessRate(), result.analysis(), result.sigma(), result.lateShare(),
                result.executions(),
                result.executedCalls(), result.statistics().meanMillis(), result.statistics().stdDevMillis(),
                result.statistics().maxMillis(), result.framesDropped());
    }

    /** The routers' HRT frames dropped as expired, and their links' emulated losses, so far. */
    private static long[] lateness(java.util.Collection<EmbeddedRouter> routers) {
        long expired = 0;
        long omitted = 0;
        for (EmbeddedRouter router : routers) {
            RouterCounters c = router.counters();
            omitted += c.emulationLost();
            for (LinkStatistics l : c.links().values()) {
                expired += l.serviceClass(ServiceClass.HRT).deadlineMisses();
            }
        }
        return new long[] {expired, omitted};
    }

    /** Declares the four RPC variables and subscribes each at its delivery link over its paths. */
    private static void admit(QosBroker broker, int[] levels, PrintStream log) {
        for (int k : levels) {
            declare(broker, RatatoskrNetwork.requestVariable(k), RatatoskrNetwork.CLIENT_ROUTER);
            declare(broker, RatatoskrNetwork.replyVariable(k), RatatoskrNetwork.SERVER_ROUTER);
        }
        for (int k : levels) {
            subscribe(broker, RatatoskrNetwork.requestVariable(k), RatatoskrNetwork.SERVER_ROUTER,
                    RatatoskrNetwork.SERVER_LINK, k, log);
            subscribe(broker, RatatoskrNetwork.replyVariable(k), RatatoskrNetwork.CLIENT_ROUTER,
                    RatatoskrNetwork.CLIENT_LINK, k, log);
        }
    }

    private static void declare(QosBroker broker, String variable, String router) {
        broker.declare(variable, router, RatatoskrNetwork.FRAME_BYTES, RatatoskrNetwork.INTERVAL, ServiceClass.HRT, "rpc")
                .join();
    }

    private static void subscribe(QosBroker broker, String variable, String router, String link, int paths,
                                  PrintStream log) {
        QosSpec qos = QosSpec.builder().interval(Duration.ofNanos(RatatoskrNetwork.INTERVAL))
                .latencyBound(Duration.ofNanos(RatatoskrNetwork.LATENCY_BOUND)).paths(paths)
                .serviceClass(ServiceClass.HRT).build();
        AdmissionResult a = broker.subscribe(variable, router, link, qos).join();
        if (a instanceof AdmissionResult.Rejected rejected) {
            throw new IllegalStateException("the broker refused " + variable + " over " + paths + " paths: "
                    + rejected.reason());
        }
        AdmissionResult.Admitted admitted = (AdmissionResult.Admitted) a;
        say(log, variable + " admitted over " + admitted.paths().stream()
                .map(p -> p.stream().map(AdmissionResult.Hop::router).toList()).toList());
    }

    /**
     * Each router's queueing budget in admission at most. The published setup gives no budgets; the
     * broker admits a path if its links' delay and transmission and its routers' budgets fit the
     * 12.5 ms bound, and path B's 8 routers at the default 1 ms leave no room for its 7 links.
     */
    static final long QUEUEING_BUDGET_NANOS = 250_000;
    /**
     * Each link's capacity at least (100 Mbit/s). The published setup gives the links' delay only;
     * at 10 Mbit/s the broker's EDF test refuses the flows: a hop's deadline (about 1 ms once its
     * propagation is taken off) is shorter than a largest datagram already on the wire and a frame.
     */
    static final long LINK_CAPACITY = 12_500_000;

    /**
     * The evaluation's topology, each router given its data address on loopback, a queueing budget
     * of at most {@link #QUEUEING_BUDGET_NANOS} and links of at least {@link #LINK_CAPACITY}: the
     * simulator's network of the evaluation, on which the same admission passes.
     */
    static Topology withAddresses(Topology t, Map<String, Integer> ports) {
        Topology.Builder b = Topology.builder();
        for (RouterNode n : t.routers()) {
            b.router(n.id(), n.forwardingCapacity(), Math.min(n.queueingBudgetNanos(), QUEUEING_BUDGET_NANOS), n.cloud(),
                    Endpoint.parse("127.0.0.1:" + ports.get(n.id())), null, n.delivery());
        }
        for (Link l : t.links()) {
            b.link(l.from().id(), l.to().id(), Math.max(l.bandwidth(), LINK_CAPACITY), l.delayNanos(), l.sharePercent());
        }
        return b.build();
    }

    /**
     * A router's properties: its links to its neighbours as the broker names them, each emulating
     * the link's delay, the omission and the outages (its own seed per directed link, so the links
     * fail independently), and at {@code cc} and {@code sub} the delivery link to the client or the
     * server (the host's own: no emulation).
     */
    static Map<String, Object> routerProperties(Topology t, RouterNode n, Map<String, Integer> ports, double omission,
                                                long outageEveryNanos, long outageForNanos, long seed, int clientPort,
                                                int serverPort, int brokerPort) {
        List<String> links = new ArrayList<>();
        for (Link l : t.outgoing(n)) {
            String to = l.to().id();
            StringBuilder line = new StringBuilder("name=" + to + " address=127.0.0.1:" + ports.get(to) + " capacity="
                    + l.bandwidth() + " hrt=" + l.sharePercent().getOrDefault(ServiceClass.HRT, 0)
                    + " lrt=" + l.sharePercent().getOrDefault(ServiceClass.LRT, 0)
                    + " be=" + l.sharePercent().getOrDefault(ServiceClass.BE, 0)
                    + " delay=" + l.delayNanos() + "ns loss=" + omission
                    + " seed=" + linkSeed(seed, n.id(), to));
            if (outageEveryNanos > 0) {
                line.append(" faultEvery=").append(outageEveryNanos).append("ns faultFor=").append(outageForNanos).append("ns");
            }
            links.add(line.toString());
        }
        if (n.id().equals(RatatoskrNetwork.CLIENT_ROUTER)) {
            links.add("name=" + RatatoskrNetwork.CLIENT_LINK + " address=127.0.0.1:" + clientPort);
        }
        if (n.id().equals(RatatoskrNetwork.SERVER_ROUTER)) {
            links.add("name=" + RatatoskrNetwork.SERVER_LINK + " address=127.0.0.1:" + serverPort);
        }
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("node.id", n.id());
        p.put("data.bind", "127.0.0.1:" + ports.get(n.id()));
        p.put("links", links.toArray(new String[0]));
        p.put("broker.address", "127.0.0.1:" + brokerPort);
        // The routers share one JVM, hence one compiled data path: the first warms it for all (13
        // warming at once would take the 2 cores of a small machine for seconds).
        if (!n.id().equals(t.routers().get(0).id())) {
            p.put("warm.up.frames", 0);
        }
        return p;
    }

    /** A positive seed of its own for each directed link. */
    static long linkSeed(long seed, String from, String to) {
        long h = seed * 0x9E3779B97F4A7C15L + (from + "->" + to).hashCode();
        h ^= h >>> 31;
        return (h & Long.MAX_VALUE) == 0 ? 1 : h & Long.MAX_VALUE;
    }

    private static InetSocketAddress loopback(int port) {
        return new InetSocketAddress("127.0.0.1", port);
    }

    private static void await(BooleanSupplier done, String what) throws InterruptedException {
        long end = System.nanoTime() + STARTUP_NANOS;
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new IllegalStateException("timed out waiting until " + what);
            }
            Thread.sleep(10);
        }
    }

    private static void say(PrintStream log, String what) {
        if (log != null) {
            log.println(what);
        }
    }
}
