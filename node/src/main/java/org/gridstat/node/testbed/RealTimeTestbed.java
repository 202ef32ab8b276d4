package org.gridstat.node.testbed;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.catalog.PublishedVariable;
import org.gridstat.broker.control.ControlLimits;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.RouterNode;
import org.gridstat.broker.topology.Topology;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.client.ReceivedEvent;
import org.gridstat.client.Subscriber;
import org.gridstat.core.control.ControlLiveness;
import org.gridstat.core.model.Endpoint;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.time.SystemClock;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.node.FreeUdpPorts;
import org.gridstat.sim.Simulation;
import org.gridstat.sim.scenario.Scenario;
import org.gridstat.congestion.CooperativeCongestionControl;
import org.gridstat.statusrouter.api.EmbeddedRouter;

/**
 * Runs a simulator {@link Scenario} in real time on loopback, {@code k} times faster
 * ({@link ScenarioTimeScale}): a {@link QosBroker} with its control channel on 127.0.0.1, admitting
 * as the scenario says and giving flows its minimum rates and ceilings; a status router per router
 * of the topology ({@link EmbeddedRouter}, the real data plane and control channel), with its
 * congestion control as the scenario's, connected to the broker; each variable declared to the
 * broker, each subscription asked of it, as {@link Simulation} does; a client {@link Publisher} per
 * variable publishing on the scenario's timeline (rate changes included), taking congestion
 * notices when the scenario's routers send them; a client {@link Subscriber} on each delivery link
 * counting, per subscription and reported interval, the samples offered (sent by the publisher),
 * delivered and on time (within the subscription's latency bound of their source time). A sample
 * counts in the interval of its source time.
 *
 * <p>The topology gives each router its data address (so each flow names its previous hops'
 * addresses, where congestion notices go); each router's own configuration gives its links to its
 * neighbours, named for them as the broker's out-links are, with the link's bandwidth as capacity,
 * its class shares and its delay emulated ({@code delay}: the emulator also serializes at the
 * capacity, as the simulated wire does). The router's own links win over the broker's out-links of
 * the same name, which it therefore refuses (logged, and an alarm at the broker). Delivery links
 * are the simulator's: 125,000,000 B/s, shares 50/30/20, no delay.
 *
 * <p>Built for scenarios of variables, subscriptions and rate changes; raw sources, link models
 * and other timeline changes are refused. Congestion holds of a publication keep its declared
 * interval's tolerance after a rate change (the client's publication has one interval); only
 * best-effort and LRT publications are held, and only HRT ones change rate in the CCC testbed.
 */
public final class RealTimeTestbed {
    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    /** How long before the first sample the timeline starts, once everything is installed. */
    private static final long LEAD = 1000 * MS;
    private static final long STARTUP = 20 * S;

    /**
     * One subscription over one reported interval, in the unscaled scenario's seconds; latencies are
     * the scaled run's.
     */
    public record Row(String stream, long fromSeconds, long toSeconds, long offered, long delivered, long onTime,
                      double meanLatencyMs, double maxLatencyMs) {
        /** Samples not delivered within the bound, over those offered. */
        public double missRatio() {
            return offered == 0 ? 0 : Math.max(0, offered - onTime) / (double) offered;
        }
    }

    /**
     * @param admissions   each subscription's outcome: "admitted" or "refused: why"
     * @param heldAtSource samples each publication held back as its router advised, by variable
     * @param lateWakeups    samples published more than a millisecond after their time (a busy machine)
     * @param brokerRefusals what the routers refused of the broker (their own links win over its out-links)
     */
    public record Result(double timeScale, Map<String, String> admissions, List<Row> rows, Map<String, Long> heldAtSource,
                         long lateWakeups, List<String> brokerRefusals) {
        public Row row(String stream, long fromSeconds) {
            return rows.stream().filter(r -> r.stream().equals(stream) && r.fromSeconds() == fromSeconds).findFirst()
                    .orElseThrow();
        }
    }

    private RealTimeTestbed() {
    }

    /**
     * Runs {@code scenario} {@code k} times faster and reports it per subscription over
     * {@code intervalsSeconds} (boundaries in the unscaled scenario's seconds, e.g. 0, 40, 60 ...).
     * Everything it starts it stops.
     *
     * @param log told what is being started, or {@code null}
     */
    public static Result run(Scenario scenario, double k, long[] intervalsSeconds, PrintStream log) throws Exception {
        return run(scenario, k, intervalsSeconds, log, null);
    }

    /**
     * As {@link #run(Scenario, double, long[], PrintStream)}, with one link carried through a veth
     * pair whose near end the kernel shapes ({@code null}: every link on loopback, shaped by its router).
     */
    public static Result run(Scenario scenario, double k, long[] intervalsSeconds, PrintStream log,
                             KernelBottleneck bottleneck) throws Exception {
        Scenario s = ScenarioTimeScale.scale(scenario, k);
        check(s);
        long[] bounds = new long[intervalsSeconds.length];
        for (int i = 0; i < bounds.length; i++) {
            bounds[i] = Math.round(intervalsSeconds[i] * S / k);
        }
        int intervals = bounds.length - 1;
        Map<String, Tally> tallies = new LinkedHashMap<>();
        s.subscriptions().forEach(u -> tallies.put(u.label(), new Tally(intervals, u.qos().latencyBoundNanos())));
        Map<Long, List<Tally>> byVariable = new ConcurrentHashMap<>();
        java.util.concurrent.atomic.AtomicLong epoch0 = new java.util.concurrent.atomic.AtomicLong();
        List<AutoCloseable> open = new ArrayList<>();
        try {
            // one subscriber per delivery link
            Map<String, Subscriber> sinks = new LinkedHashMap<>();
            for (Scenario.Subscription u : s.subscriptions()) {
                String key = u.router() + "/" + u.link();
                if (!sinks.containsKey(key)) {
                    Subscriber sink = Subscriber.open(new InetSocketAddress("127.0.0.1", 0),
                            e -> received(e, byVariable, epoch0.get(), bounds));
                    open.add(sink);
                    sinks.put(key, sink);
                }
            }
            Map<String, Integer> ports = new LinkedHashMap<>();
            for (RouterNode r : s.topology().routers()) {
                ports.put(r.id(), FreeUdpPorts.pick());
            }
            Map<String, String> hosts = new LinkedHashMap<>();
            FarSideRelay relay = null;
            if (bottleneck != null) {
                Link l = s.topology().links().stream().filter(x -> x.from().id().equals(bottleneck.from())
                        && x.to().id().equals(bottleneck.to())).findFirst().orElseThrow(() -> new IllegalArgumentException(
                                "the scenario has no link " + bottleneck.from() + "->" + bottleneck.to()));
                // the next router listens where the far namespace reaches it; the relay gives it what crossed the pair
                hosts.put(bottleneck.to(), bottleneck.veth().hostAddress().getHostAddress());
                relay = FarSideRelay.open(bottleneck.veth().farNamespace(),
                        new InetSocketAddress(bottleneck.veth().farAddress(), 0),
                        new InetSocketAddress(bottleneck.veth().hostAddress(), ports.get(bottleneck.to())), l.delayNanos());
                open.add(relay);
            }
            Topology topology = withAddresses(s.topology(), ports, hosts);
            long adaptation = s.congestion().adaptationDelayNanos();
            QosBroker broker = new QosBroker(topology, new InetSocketAddress("127.0.0.1", 0),
                    new ControlLimits(ControlLiveness.Timing.DEFAULT, ControlLimits.DEFAULT_HELLO_DEADLINE_NANOS,
                            ControlLimits.DEFAULT_MAX_CONNECTIONS, adaptation < 0 ? ControlLimits.NO_ADAPTATION : adaptation),
                    s.admission() == Scenario.Admission.FULL, s.congestion().rates());
            open.add(broker);
            Map<String, EmbeddedRouter> routers = new LinkedHashMap<>();
            for (RouterNode r : topology.routers()) {
                Map<String, Object> properties = routerProperties(s, topology, r, ports, hosts, sinks,
                        broker.controlAddress().getPort(), bottleneck,
                        relay == null ? null : relay.address().getAddress().getHostAddress() + ":" + relay.address().getPort());
                EmbeddedRouter router = EmbeddedRouter.start(properties, new CooperativeCongestionControl(),
                        bottleneck == null ? null : bottleneck.shaping());
                open.add(router);
                routers.put(r.id(), router);
            }
            say(log, "started a broker on 127.0.0.1:" + broker.controlAddress().getPort() + " and routers " + ports
                    + "; congestion control " + mode(s.congestion()));
            await(() -> routers.keySet().stream().allMatch(broker.control()::connected), "routers connect to the broker");

            Map<String, String> admissions = new LinkedHashMap<>();
            Map<String, PublishedVariable> declared = new LinkedHashMap<>();
            for (Scenario.Variable v : s.variables()) {
                declared.put(v.name(), broker.declare(v.name(), v.router(), v.frameBytes(), v.intervalNanos(),
                        v.serviceClass(), v.correlationGroup()).join());
            }
            for (Scenario.Subscription u : s.subscriptions()) {
                PublishedVariable v = declared.get(u.variable());
                AdmissionResult r;
                try {
                    r = broker.subscribe(u.variable(), u.router(), u.link(), u.qos()).join();
                } catch (CompletionException e) {
                    admissions.put(u.label(), "refused: " + e.getCause().getMessage());
                    continue;
                }
                if (r instanceof AdmissionResult.Rejected rejected) {
                    admissions.put(u.label(), "refused: " + rejected.reason());
                    continue;
                }
                admissions.put(u.label(), "admitted");
                byVariable.computeIfAbsent(v.id(), id -> new ArrayList<>()).add(tallies.get(u.label()));
            }
            await(() -> routers.keySet().stream().allMatch(r -> broker.control().inSync(r)),
                    "routers acknowledge their flows");

            List<Source> sources = new ArrayList<>();
            for (Scenario.Variable v : s.variables()) {
                Publisher p = Publisher.connect(routers.get(v.router()).dataAddress());
                open.add(p);
                if (s.congestion().notices()) {
                    p.congestionNotices((variable, hz) -> { });
                }
                Publication pub = p.publication(VariableId.of(declared.get(v.name()).id()), v.serviceClass(),
                        v.latencyBoundNanos() > 0 ? Duration.ofNanos(v.latencyBoundNanos()) : null,
                        Duration.ofNanos(v.intervalNanos()));
                sources.add(new Source(v, pub, byVariable.getOrDefault(declared.get(v.name()).id(), List.of())));
            }
            say(log, "publishing for " + s.durationNanos() / (double) S + " s (the scenario's "
                    + scenario.durationNanos() / (double) S + " s at a time scale of " + k + ")");
            System.gc(); // what starting took is collected before the timeline, not during it
            long late = publish(s, sources, epoch0, bounds);
            Thread.sleep(200); // the last samples arrive or are given up
            Map<String, Long> held = new LinkedHashMap<>();
            sources.forEach(src -> {
                if (src.publication.held() > 0) {
                    held.put(src.variable.name(), src.publication.held());
                }
            });
            List<Row> rows = new ArrayList<>();
            tallies.forEach((label, t) -> {
                for (int i = 0; i < intervals; i++) {
                    long delivered = t.delivered.get(i);
                    rows.add(new Row(label, intervalsSeconds[i], intervalsSeconds[i + 1], t.offered.get(i), delivered,
                            t.onTime.get(i), delivered == 0 ? 0 : t.latencySum.get(i) / 1e6 / delivered,
                            t.latencyMax.get(i) / 1e6));
                }
            });
            return new Result(k, admissions, rows, held, late, broker.control().refusals());
        } finally {
            // publishers, routers (before the broker they would retry), broker, subscribers
            for (int i = open.size() - 1; i >= 0; i--) {
                try {
                    open.get(i).close();
                } catch (Exception e) {
                    say(log, "closing " + open.get(i) + ": " + e);
                }
            }
        }
    }

    /** What the runner does not emulate. */
    private static void check(Scenario s) {
        if (!s.rawSources().isEmpty() || !s.links().isEmpty()) {
            throw new IllegalArgumentException("the real-time testbed runs no raw sources and no link models");
        }
        for (Scenario.Change c : s.timeline()) {
            if (!(c instanceof Scenario.RateChange)) {
                throw new IllegalArgumentException("the real-time testbed runs rate changes only, not " + c);
            }
        }
        for (Scenario.Subscription u : s.subscriptions()) {
            if (u.atNanos() != 0) {
                throw new IllegalArgumentException("the real-time testbed subscribes before it publishes: " + u.label());
            }
        }
        for (Scenario.Variable v : s.variables()) {
            if (v.jitterNanos() != 0 || v.clockOffsetNanos() != 0) {
                throw new IllegalArgumentException("the real-time testbed publishes without jitter or clock offset: "
                        + v.name());
            }
        }
    }

    private static String mode(Scenario.Congestion c) {
        return c.notices() ? "on" : c.control() ? "local" : "off";
    }

    /** The scenario's topology, each router given its data address on loopback. */
    static Topology withAddresses(Topology t, Map<String, Integer> ports) {
        return withAddresses(t, ports, Map.of());
    }

    /** The scenario's topology, each router given its data address: on {@code hosts}' address if it names one, else loopback. */
    static Topology withAddresses(Topology t, Map<String, Integer> ports, Map<String, String> hosts) {
        Topology.Builder b = Topology.builder();
        for (RouterNode r : t.routers()) {
            b.router(r.id(), r.forwardingCapacity(), r.queueingBudgetNanos(), r.cloud(),
                    Endpoint.parse(hosts.getOrDefault(r.id(), "127.0.0.1") + ":" + ports.get(r.id())), null, r.delivery());
        }
        for (Link l : t.links()) {
            b.link(l.from().id(), l.to().id(), l.bandwidth(), l.delayNanos(), l.sharePercent());
        }
        return b.build();
    }

    /** A router's Config Admin properties: its links to its neighbours and subscribers, the broker, the estimator. */
    static Map<String, Object> routerProperties(Scenario s, Topology t, RouterNode r, Map<String, Integer> ports,
                                                Map<String, Subscriber> sinks, int brokerPort) {
        return routerProperties(s, t, r, ports, Map.of(), sinks, brokerPort, null, null);
    }

    /**
     * With the bottleneck's link (if any) sent to the relay on the far side of its veth pair, its
     * delay left to the relay and its shaping to the kernel.
     */
    static Map<String, Object> routerProperties(Scenario s, Topology t, RouterNode r, Map<String, Integer> ports,
                                                Map<String, String> hosts, Map<String, Subscriber> sinks, int brokerPort,
                                                KernelBottleneck bottleneck, String relay) {
        List<String> links = new ArrayList<>();
        List<String> kernel = new ArrayList<>();
        for (Link l : t.outgoing(r)) {
            boolean throughKernel = bottleneck != null && bottleneck.from().equals(r.id())
                    && bottleneck.to().equals(l.to().id());
            String address = throughKernel ? relay : hosts.getOrDefault(l.to().id(), "127.0.0.1") + ":" + ports.get(l.to().id());
            links.add("name=" + l.to().id() + " address=" + address + " capacity=" + l.bandwidth()
                    + " hrt=" + l.sharePercent().getOrDefault(ServiceClass.HRT, 0)
                    + " lrt=" + l.sharePercent().getOrDefault(ServiceClass.LRT, 0)
                    + " be=" + l.sharePercent().getOrDefault(ServiceClass.BE, 0)
                    + (l.delayNanos() > 0 && !throughKernel ? " delay=" + l.delayNanos() + "ns" : ""));
            if (throughKernel) {
                kernel.add("link=" + l.to().id() + " device=" + bottleneck.veth().hostDevice());
            }
        }
        sinks.forEach((key, sink) -> {
            if (key.startsWith(r.id() + "/")) {
                links.add("name=" + key.substring(r.id().length() + 1) + " address=127.0.0.1:" + sink.localAddress().getPort()
                        + " capacity=" + Simulation.DELIVERY_CAPACITY + " hrt=50 lrt=30 be=20");
            }
        });
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("node.id", r.id());
        p.put("data.bind", hosts.getOrDefault(r.id(), "127.0.0.1") + ":" + ports.get(r.id()));
        p.put("kernel.shaping", kernel.toArray(new String[0]));
        p.put("links", links.toArray(new String[0]));
        p.put("broker.address", "127.0.0.1:" + brokerPort);
        p.put("report.period.ms", Math.max(1, s.reportIntervalNanos() / MS));
        p.put("estimator.period.ms", Math.max(10, Math.round(s.congestion().estimator().periodNanos() / (double) MS)));
        p.put("estimator.weight", s.congestion().estimator().weight());
        p.put("congestion.control", mode(s.congestion()));
        return p;
    }

    /** One publisher on the timeline. */
    private static final class Source {
        final Scenario.Variable variable;
        final Publication publication;
        final List<Tally> tallies;
        final byte[] payload;
        long next;
        long interval;

        Source(Scenario.Variable v, Publication publication, List<Tally> tallies) {
            this.variable = v;
            this.publication = publication;
            this.tallies = tallies;
            this.payload = new byte[v.frameBytes() - WireFormat.HEADER_LENGTH];
            this.next = v.startNanos();
            this.interval = v.intervalNanos();
        }
    }

    /**
     * Publishes on the scenario's timeline in the caller's thread, each sample stamped with its
     * nominal time on the epoch clock, the timeline starting on a whole second (the PMUs are
     * GPS-aligned), and sent at that time or as soon after as the thread wakes; returns how many
     * went out more than a millisecond late.
     */
    private static long publish(Scenario s, List<Source> sources, java.util.concurrent.atomic.AtomicLong epoch0,
                                long[] bounds) {
        List<Scenario.RateChange> changes = s.timeline().stream().map(c -> (Scenario.RateChange) c)
                .sorted(Comparator.comparingLong(Scenario.RateChange::atNanos)).toList();
        int nextChange = 0;
        long monoNow = System.nanoTime();
        long epochNow = SystemClock.INSTANCE.nanos();
        long epochStart = timelineStart(epochNow);
        long mono0 = monoNow + (epochStart - epochNow);
        epoch0.set(epochStart);
        long late = 0;
        long end = s.durationNanos();
        while (true) {
            long t = Long.MAX_VALUE;
            for (Source src : sources) {
                t = Math.min(t, src.next);
            }
            if (t >= end) {
                break;
            }
            long wait;
            while ((wait = mono0 + t - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            if (-wait > MS) {
                late++;
            }
            while (nextChange < changes.size() && changes.get(nextChange).atNanos() <= t) {
                Scenario.RateChange c = changes.get(nextChange++);
                sources.stream().filter(src -> src.variable.name().equals(c.variable())).forEach(src -> src.interval =
                        c.intervalNanos());
            }
            for (Source src : sources) {
                if (src.next == t) {
                    if (src.publication.publish(src.payload, 0, src.payload.length, epochStart + t)) {
                        int i = interval(t, bounds);
                        if (i >= 0) {
                            src.tallies.forEach(tally -> tally.offered.incrementAndGet(i));
                        }
                    }
                    src.next += src.interval;
                }
            }
        }
        long until = mono0 + end;
        long wait;
        while ((wait = until - System.nanoTime()) > 0) {
            LockSupport.parkNanos(wait);
        }
        return late;
    }

    /**
     * Where the timeline starts on the epoch clock, read at {@code epochNow}: the first whole second
     * at least {@link #LEAD} later, so that every sample is stamped on the second-aligned grid a
     * GPS-disciplined PMU samples on (and the simulator's clock starts on). Off that grid, the
     * holds' rate filters, whose grids are second-aligned too, would keep other samples than in
     * the simulator.
     */
    static long timelineStart(long epochNow) {
        return secondAligned(epochNow + LEAD);
    }

    /** The first whole second of the epoch at or after {@code epochNanos}. */
    static long secondAligned(long epochNanos) {
        return -Math.floorDiv(-epochNanos, S) * S;
    }

    private static void received(ReceivedEvent e, Map<Long, List<Tally>> byVariable, long epoch0, long[] bounds) {
        List<Tally> tallies = byVariable.get(e.variableId());
        if (tallies == null) {
            return;
        }
        int i = interval(e.sourceTimeNanos() - epoch0, bounds);
        if (i < 0) {
            return;
        }
        long latency = Math.max(0, e.latencyNanos());
        for (Tally t : tallies) {
            t.delivered.incrementAndGet(i);
            if (latency <= t.bound) {
                t.onTime.incrementAndGet(i);
            }
            t.latencySum.addAndGet(i, latency);
            t.latencyMax.accumulateAndGet(i, latency, Math::max);
        }
    }

    /** The reported interval of a time of the run, or -1 if none. */
    private static int interval(long t, long[] bounds) {
        for (int i = 0; i + 1 < bounds.length; i++) {
            if (t >= bounds[i] && t < bounds[i + 1]) {
                return i;
            }
        }
        return -1;
    }

    /** One subscription's counts per interval; written by the publishing and receiving threads. */
    private static final class Tally {
        final AtomicLongArray offered;
        final AtomicLongArray delivered;
        final AtomicLongArray onTime;
        final AtomicLongArray latencySum;
        final AtomicLongArray latencyMax;
        final long bound;

        Tally(int intervals, long bound) {
            offered = new AtomicLongArray(intervals);
            delivered = new AtomicLongArray(intervals);
            onTime = new AtomicLongArray(intervals);
            latencySum = new AtomicLongArray(intervals);
            latencyMax = new AtomicLongArray(intervals);
            this.bound = bound;
        }
    }

    private static void await(java.util.function.BooleanSupplier done, String what) throws InterruptedException {
        long end = System.nanoTime() + STARTUP;
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
