package org.gridstat.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletionException;
import java.util.function.LongConsumer;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.catalog.PublishedVariable;
import org.gridstat.broker.install.FlowInstaller;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.RouterNode;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.congestion.Decision;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.egress.EgressPump;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.forward.SourceTimeTrust;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.sched.QueueCounter;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.core.sched.Shaping;
import org.gridstat.sim.engine.EventLoop;
import org.gridstat.sim.metrics.FlowInterval;
import org.gridstat.sim.metrics.SubscriptionSeries;
import org.gridstat.sim.net.LinkModel;
import org.gridstat.sim.net.PacketReferences;
import org.gridstat.sim.net.SimDatagram;
import org.gridstat.sim.net.SimLink;
import org.gridstat.sim.net.SimPacket;
import org.gridstat.sim.net.SimRouter;
import org.gridstat.sim.scenario.Scenario;
import org.gridstat.sim.traffic.PayloadListener;
import org.gridstat.sim.traffic.Publisher;
import org.gridstat.sim.traffic.RawSender;
import org.gridstat.sim.traffic.Subscriber;

/**
 * Runs a {@link Scenario}: builds the network (a {@link SimRouter} per router of the topology, a
 * {@link SimLink} per link and per delivery link), runs the broker's own admission and flow
 * planning in process ({@link QosBroker#inProcess}) so the routers hold exactly the flows a broker
 * would install, publishes, subscribes and applies the timeline on simulated time, and measures.
 * Deterministic: the same scenario and seed give the same result, bit for bit.
 */
public final class Simulation {
    /** The epoch time at simulated time 0: 2026-01-01T00:00:00Z. */
    public static final long EPOCH_BASE = 1_767_225_600_000_000_000L;
    /** A delivery link's capacity unless the scenario gives one: 1 Gbit/s. */
    public static final long DELIVERY_CAPACITY = 125_000_000L;
    /** Raw sources are routed by ids from here up, far from any the broker gives. */
    static final long RAW_BASE = 1L << 62;
    /** How much faster than its wire the router's pacer runs on a FIFO link: it releases at once, the FIFO decides. */
    private static final long UNPACED = 1024;

    private final Scenario scenario;
    private final EventLoop loop = new EventLoop();
    private final SplittableRandom random;
    private final Map<String, SimRouter> routers = new LinkedHashMap<>();
    private final Map<String, SimLink> links = new LinkedHashMap<>();
    private final Map<String, Subscriber> deliveries = new LinkedHashMap<>();
    private final Map<String, Publisher> publishers = new LinkedHashMap<>();
    private final Map<String, PublishedVariable> declared = new HashMap<>();
    private final Map<String, SubscriptionSeries> series = new LinkedHashMap<>();
    private final Map<String, Long> subscriptionIds = new HashMap<>();
    private final Map<String, String> admissions = new LinkedHashMap<>();
    private final Map<String, RawSender> rawSenders = new LinkedHashMap<>();
    private final Map<Long, long[]> rawDelivered = new HashMap<>();
    /** Where each flow the broker installed lives: router and out-link, by flow id. */
    private final Map<Long, Object[]> flowPlaces = new HashMap<>();
    private final Map<Long, List<SubscriptionSeries>> byVariable = new HashMap<>();
    private final QosBroker broker;
    private final PacketReferences references = new PacketReferences();
    /** Subscriptions torn down: their rows end when they did. */
    private final java.util.Set<String> ended = new java.util.HashSet<>();
    private final Map<String, Scenario.Subscription> subscriptionsByLabel = new HashMap<>();
    /** The raw sources' flows by router, installed again when it restarts. */
    private final Map<String, List<FlowEntry>> rawFlows = new HashMap<>();
    /** Drops counted on flows of routers that crashed since: overflow and misses, by flow id. */
    private final Map<Long, long[]> retired = new HashMap<>();
    private long lastClosed;
    /** Where the run ends: its duration, or earlier if an application {@link #stop stopped} it. */
    private long endNanos;
    /** Listeners asked for before the variables were declared, attached when they are. */
    private final List<Runnable> pendingListeners = new ArrayList<>();

    private final boolean checking;
    private final List<SimulationResult.CongestionDecision> decisions = new ArrayList<>();
    private final List<SimulationResult.Notice> notices = new ArrayList<>();
    /** Flows whose need congestion control reported unmet, and not met since, as "router/flow". */
    private final java.util.Set<String> unmetFlows = new java.util.HashSet<>();
    private final List<org.gridstat.broker.adapt.GlobalAdaptation.Outcome> adaptations = new ArrayList<>();
    private final org.gridstat.broker.adapt.GlobalAdaptation adaptation;
    /** The routers' ids by hop number, as flows name their previous hops. */
    private final List<String> hops = new ArrayList<>();

    private Simulation(Scenario scenario, boolean checking) {
        this.scenario = scenario;
        this.checking = checking;
        this.random = new SplittableRandom(scenario.seed());
        build();
        this.broker = QosBroker.inProcess(scenario.topology(), new Installer(),
                scenario.admission() == Scenario.Admission.FULL, scenario.congestion().rates());
        long delay = scenario.congestion().adaptationDelayNanos();
        this.adaptation = delay < 0 ? null : broker.adaptInProcess(java.time.Duration.ofNanos(delay),
                (after, task) -> loop.at(loop.now() + after, task), loop::now,
                (router, flowId) -> unmetFlows.contains(router + "/" + flowId), adaptations::add);
    }

    private void decided(String router, String link, long at, Decision d) {
        if (decisions.size() < SimulationResult.MAX_DECISIONS) {
            decisions.add(new SimulationResult.CongestionDecision(at, router, link, d));
        }
        if (d.kind() == Decision.Kind.UNMET) { // the alarm the broker hears (a real router's flow report)
            unmetFlows.add(router + "/" + d.flowId());
            if (adaptation != null) {
                adaptation.unmet(router, d.flowId(), d.toRate());
            }
        } else if (d.kind() == Decision.Kind.MET) {
            unmetFlows.remove(router + "/" + d.flowId());
        }
    }

    /** Runs {@code scenario} to its end. */
    public static SimulationResult run(Scenario scenario) {
        return run(scenario, done -> { });
    }

    /**
     * Runs {@code scenario} to its end, telling {@code progress} the simulated nanoseconds done at
     * the end of each report interval (the last time: the duration). The run reads no wall clock;
     * a caller that reports progress to a person throttles it by its own.
     */
    public static SimulationResult run(Scenario scenario, LongConsumer progress) {
        return prepare(scenario).execute(progress);
    }

    /** Builds the network of {@code scenario}, ready to {@link #execute}; for measuring a run from outside. */
    public static Simulation prepare(Scenario scenario) {
        return new Simulation(scenario, false);
    }

    /** Flows the simulated routers hold now, over all their out-links. */
    public long flowsHeld() {
        return routers.values().stream().mapToLong(r -> r.engine().flows().size()).sum();
    }

    /** A run and what its invariants found wrong (nothing, if all is well). */
    public record Checked(SimulationResult result, List<String> violations, int hrtChecked) {
    }

    /**
     * Runs {@code scenario} and checks the invariants of {@link Invariants} at its end: what
     * deterministic simulation testing asks of every run.
     */
    public static Checked runChecked(Scenario scenario) {
        Simulation sim = new Simulation(scenario, true);
        SimulationResult r = sim.execute();
        Invariants invariants = new Invariants(sim, r);
        List<String> violations = invariants.check();
        return new Checked(r, violations, invariants.hrtChecked());
    }

    // --- applications on the simulated network ------------------------------------------------
    //
    // An application (an RPC client and server, say) runs in the event loop's thread on simulated
    // time: it schedules its actions on loop(), publishes samples of its own and is handed the
    // samples of the variables it listens to. Hooks are set up between prepare and execute.

    /** The run's event loop: simulated time, and where an application schedules its actions. */
    public EventLoop loop() {
        return loop;
    }

    /**
     * Sends one sample of {@code variable} carrying {@code payload} now, from that variable's
     * publisher, through its router like its periodic samples: the next sequence number, the source
     * time now and the deadline its latency bound gives, counted for its subscriptions. During the
     * run only (the variables are declared when it starts).
     *
     * @return whether it was sent ({@code false}: a congestion notice held it back at the source)
     * @throws IllegalArgumentException if the scenario has no such variable, or the payload is too long
     * @throws IllegalStateException    before the run has started
     */
    public boolean publish(String variable, byte[] payload) {
        Publisher p = publishers.get(variable);
        if (p == null) {
            routerOf(variable, "publish"); // unknown: says so
            throw new IllegalStateException("publish " + variable + ": the run has not started; publish from an action"
                    + " on loop()");
        }
        return p.send(payload);
    }

    /**
     * Hands {@code listener} each sample of {@code variable} that arrives at the delivery link
     * {@code link} of {@code router}, once (its own sequence window drops the copies of other paths),
     * with its payload. The variable must reach that link by a subscription of the scenario; a
     * listener does not subscribe. Before or during the run.
     *
     * @throws IllegalArgumentException if there is no such variable or delivery link
     */
    public void listen(String variable, String router, String link, PayloadListener listener) {
        java.util.Objects.requireNonNull(listener, "listener");
        routerOf(variable, "listen");
        Subscriber sink = deliveries.get(router + "/" + link);
        if (sink == null) {
            throw new IllegalArgumentException("listen " + variable + ": no delivery link '" + router + "/" + link
                    + "' (known: " + String.join(", ", deliveries.keySet()) + ")");
        }
        Runnable attach = () -> sink.listen(declared.get(variable).id(), listener);
        if (declared.containsKey(variable)) {
            attach.run();
        } else {
            pendingListeners.add(attach);
        }
    }

    /**
     * Applies {@code change} now, as the timeline does at its time (its own time is not looked
     * at): for an application that draws faults as the run goes rather than all before it.
     */
    public void change(Scenario.Change change) {
        apply(java.util.Objects.requireNonNull(change, "change"));
    }

    /**
     * Ends the run after the action running now (an application's last call answered): nothing
     * later runs, and the result covers the time up to now. A run that is not stopped lasts its
     * duration.
     */
    public void stop() {
        loop.stop();
    }

    // --- what Invariants reads -----------------------------------------------------------------

    Scenario scenario() {
        return scenario;
    }

    Map<String, SimRouter> routers() {
        return routers;
    }

    Map<String, SimLink> links() {
        return links;
    }

    PacketReferences references() {
        return references;
    }

    Map<String, SubscriptionSeries> series() {
        return series;
    }

    QosBroker broker() {
        return broker;
    }

    Map<String, Long> subscriptionIds() {
        return subscriptionIds;
    }

    Map<String, RawSender> rawSenders() {
        return rawSenders;
    }

    // --- the network -------------------------------------------------------------------------

    private void build() {
        Topology t = scenario.topology();
        Map<String, Integer> flowsPerLink = FlowSizing.flowsPerLink(scenario);
        SourceTimeTrust trust = SourceTimeTrust.DEFAULT;
        Map<String, List<SimRouter.OutLink>> outLinks = new LinkedHashMap<>();
        for (RouterNode r : t.routers()) {
            List<SimRouter.OutLink> out = new ArrayList<>();
            for (Link l : t.outgoing(r)) {
                LinkModel model = modelOf(l.name(), l.bandwidth(), l.delayNanos());
                SimLink link = new SimLink(l.name(), loop, model, random.split());
                links.put(l.name(), link);
                out.add(new SimRouter.OutLink(l.to().id(), specOf(model, l.sharePercent().getOrDefault(ServiceClass.HRT, 0),
                        l.sharePercent().getOrDefault(ServiceClass.LRT, 0), l.sharePercent().getOrDefault(ServiceClass.BE, 0)),
                        datagramBytes(model), link));
                String to = l.to().id();
                link.connect(d -> arrive(d, to));
            }
            for (String name : deliveryLinks(r)) {
                String full = r.id() + "/" + name;
                ControlMessage.OutLink declaredLink = r.deliveryLink(name);
                LinkModel model = scenario.links().containsKey(full) ? scenario.links().get(full)
                        : declaredLink != null ? declared(declaredLink) : LinkModel.of(DELIVERY_CAPACITY, 0);
                SimLink link = new SimLink(full, loop, model, random.split());
                links.put(full, link);
                Subscriber sink = new Subscriber(loop, EPOCH_BASE);
                deliveries.put(full, sink);
                link.connect(d -> {
                    if (!rawArrived(d)) {
                        sink.receive(d);
                    }
                });
                out.add(new SimRouter.OutLink(name, declaredLink == null ? specOf(model, 50, 30, 20)
                        : specOf(model, declaredLink.hrtPercent(), declaredLink.lrtPercent(), declaredLink.bePercent()),
                        declaredLink == null ? datagramBytes(model) : Math.min(declaredLink.mtu(), datagramBytes(model)),
                        link));
            }
            outLinks.put(r.id(), out);
        }
        for (RouterNode r : t.routers()) {
            Scenario.Congestion c = scenario.congestion();
            SimRouter router = new SimRouter(r.id(), loop, outLinks.get(r.id()), flowsPerLink.get(r.id()), trust, EPOCH_BASE, 0,
                    references, c.estimator(), c.control() ? this::decided : null);
            if (c.notices()) {
                router.useNotices(this::advised);
            }
            routers.put(r.id(), router);
            hops.add(r.id());
        }
        for (String name : scenario.links().keySet()) {
            if (!links.containsKey(name)) {
                throw new IllegalArgumentException("links: no link '" + name + "' in the topology or among the delivery"
                        + " links (known: " + String.join(", ", links.keySet()) + ")");
            }
        }
    }

    /** A router's delivery links: those its topology entry declares and those subscriptions name. */
    private List<String> deliveryLinks(RouterNode r) {
        List<String> names = new ArrayList<>();
        r.delivery().forEach(l -> names.add(l.name()));
        for (Scenario.Subscription s : scenario.subscriptions()) {
            if (s.router().equals(r.id()) && !names.contains(s.link())) {
                names.add(s.link());
            }
        }
        return names;
    }

    /** The largest datagram a router packs for a link: one IP packet of its MTU, and never below a largest frame. */
    static int datagramBytes(LinkModel m) {
        return Math.max(EgressPump.DEFAULT_MTU, Math.min(WireFormat.MAX_DATAGRAM_LENGTH, m.mtu() - WireFormat.DATAGRAM_OVERHEAD));
    }

    /**
     * A delivery link as the topology declares it: its capacity and its emulation (delay, loss,
     * outages with its fault time as their mean duration); the router's scheduler orders it.
     */
    private static LinkModel declared(ControlMessage.OutLink l) {
        ControlMessage.Emulation e = l.emulation();
        boolean outages = e.faultEveryNanos() > 0 && e.faultForNanos() > 0;
        return new LinkModel(l.capacity(), e.delayNanos(), LinkModel.DEFAULT_MTU, LinkModel.DEFAULT_QUEUE_PACKETS,
                LinkModel.Discipline.SCHEDULER, e.loss(), LinkModel.BurstLoss.NONE, outages ? e.faultEveryNanos() : 0,
                outages ? e.faultForNanos() : 0);
    }

    private LinkModel modelOf(String name, long capacity, long delay) {
        LinkModel m = scenario.links().get(name);
        return m != null ? m : LinkModel.of(capacity, delay);
    }

    /**
     * The router's scheduler for a link: paced at the wire's capacity under its own discipline; on a
     * FIFO link it releases at once, so the FIFO is what orders and drops.
     */
    private static LinkSpec specOf(LinkModel m, long hrt, long lrt, long be) {
        long capacity = m.discipline() == LinkModel.Discipline.SCHEDULER ? m.capacity()
                : m.capacity() > Shaping.MAX_BURST / UNPACED ? Shaping.MAX_BURST : m.capacity() * UNPACED;
        return LinkSpec.ofPercent(capacity, hrt, lrt, be, 0);
    }

    private void arrive(SimDatagram d, String router) {
        SimRouter r = routers.get(router);
        if (!r.up()) {
            r.receive(d); // counted as lost there, whatever it carries
        } else if (!rawArrived(d)) {
            r.receive(d);
        }
    }

    /** A raw datagram ends where its link does. */
    private boolean rawArrived(SimDatagram d) {
        SimPacket p = d.opaque();
        if (p == null || p.variableId() < RAW_BASE) {
            return false;
        }
        long[] figures = rawDelivered.computeIfAbsent(p.variableId(), k -> new long[2]);
        figures[0]++;
        figures[1] += p.length();
        return true;
    }

    /**
     * A congestion notice from {@code router} to its previous hop: a router, after the propagation
     * delay of the link between them, or the variable's publisher (beside its router: at once). The
     * channel is reliable and apart from the data (a TCP connection's control traffic, which the
     * thesis gives the highest priority): it loses nothing and queues behind no event.
     */
    private void advised(String router, int hop, long variableId, int rateHz) {
        long now = loop.now();
        if (hop == FlowEntry.PUBLISHER) {
            publishers.forEach((name, p) -> {
                if (p.variableId() == variableId && routerOf(name).equals(router)) {
                    int at = note(new SimulationResult.Notice(now, now, router, name, variableId, rateHz, -1));
                    p.advise(rateHz, at < 0 ? null : held -> notices.set(at, notices.get(at).withFirstHeldAt(held)));
                }
            });
            return;
        }
        String upstream = hops.get(hop);
        Link l = scenario.topology().link(upstream, router);
        long arrives = now + (l == null ? 0 : l.delayNanos());
        loop.at(arrives, () -> {
            if (routers.get(upstream).noticed(router, variableId, rateHz) != null) {
                note(new SimulationResult.Notice(now, arrives, router, upstream, variableId, rateHz, -1));
            }
        });
    }

    /**
     * A router crashed: its notice channels close. What it asked of its previous hops lifts there,
     * and its publishers are no longer held, as a real one's TCP connections tell them.
     */
    private void noticesLost(String router) {
        if (!scenario.congestion().notices()) {
            return;
        }
        routers.values().forEach(up -> {
            int link = up.outLink(router);
            if (up.relay() != null && link >= 0) {
                up.relay().linkLost(link);
            }
        });
        publishers.forEach((name, p) -> {
            if (routerOf(name).equals(router)) {
                p.advise(0);
            }
        });
    }

    /** A router restarted: each next hop sends it again what it asks of it, as on a reconnected channel. */
    private void noticesReconnect(String router) {
        if (!scenario.congestion().notices()) {
            return;
        }
        int hop = hops.indexOf(router);
        routers.values().forEach(down -> {
            if (down.relay() != null && down.up()) {
                down.relay().adviceFor(hop, (h, variable, rate) -> advised(down.id(), h, variable, rate));
            }
        });
    }

    /** Keeps a notice (the first {@link SimulationResult#MAX_DECISIONS}); returns its place, or -1 if not kept. */
    private int note(SimulationResult.Notice n) {
        if (notices.size() < SimulationResult.MAX_DECISIONS) {
            notices.add(n);
            return notices.size() - 1;
        }
        return -1;
    }

    private String routerOf(String variable) {
        return scenario.variables().stream().filter(v -> v.name().equals(variable)).findFirst().orElseThrow().router();
    }

    private String routerOf(String variable, String asking) {
        return scenario.variables().stream().filter(v -> v.name().equals(variable)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(asking + ": the scenario has no variable '" + variable
                        + "'")).router();
    }

    /** The flow's previous hops as numbers of {@link #hops}. */
    private int[] hopsOf(List<ControlMessage.Upstream> upstream) {
        return upstream.stream().mapToInt(u -> u.isPublisher() ? FlowEntry.PUBLISHER : hops.indexOf(u.router()))
                .filter(h -> h >= FlowEntry.PUBLISHER).toArray();
    }

    /** Sends the broker's flow changes to the simulated routers, at once, as a connected control channel does. */
    private final class Installer implements FlowInstaller {
        @Override
        public void install(String router, ControlMessage.InstallFlow flow) {
            SimRouter r = routers.get(router);
            int link = r.outLink(flow.link());
            if (link < 0) {
                throw new IllegalStateException("router " + router + " has no out-link '" + flow.link() + "'");
            }
            flowPlaces.put(flow.spec().flowId(), new Object[] {r, link});
            r.submit(FlowCommand.install(flow.entry(link, hopsOf(flow.upstream()))));
        }

        @Override
        public void remove(String router, long flowId, long version) {
            routers.get(router).submit(FlowCommand.remove(flowId, version));
        }
    }

    // --- the run -------------------------------------------------------------------------------

    private Map<String, Long> held() {
        Map<String, Long> out = new LinkedHashMap<>();
        publishers.forEach((name, p) -> {
            if (p.held() > 0) {
                out.put(name, p.held());
            }
        });
        return out;
    }

    /** Runs the scenario to its end; once. */
    public SimulationResult execute() {
        return execute(done -> { });
    }

    /** Runs the scenario to its end, telling {@code progress} as {@link #run(Scenario, LongConsumer)} does; once. */
    public SimulationResult execute(LongConsumer progress) {
        for (Scenario.Variable v : scenario.variables()) {
            declare(v);
        }
        pendingListeners.forEach(Runnable::run);
        pendingListeners.clear();
        // Subscriptions are asked before any publisher starts: one asked at the instant its
        // publisher sends is in place for that sample.
        for (Scenario.Subscription s : scenario.subscriptions()) {
            if (s.atNanos() < scenario.durationNanos()) {
                loop.at(s.atNanos(), () -> subscribe(s));
            } else {
                admissions.put(s.label(), "not asked: its time is at or after the end of the run");
            }
        }
        // A variable starting at or after the end has no periodic source: an application publishes it.
        publishers.forEach((name, p) -> {
            if (startOf(name) < scenario.durationNanos()) {
                p.start(startOf(name));
            }
        });
        long rawId = RAW_BASE;
        for (Scenario.RawSource rs : scenario.rawSources()) {
            startRaw(rs, rawId++);
        }
        for (Scenario.Change c : scenario.timeline()) {
            loop.at(c.atNanos(), () -> apply(c));
        }
        long interval = scenario.reportIntervalNanos();
        long end = scenario.durationNanos();
        endNanos = end;
        for (long from = 0; from < end; from += interval) {
            long to = Math.min(end, from + interval);
            loop.runUntil(to - 1); // the interval is [from, to)
            if (loop.stopped()) { // an application ended the run: its last interval ends with the action that did
                to = Math.min(to, loop.now() + 1);
                end = to;
                endNanos = end;
            }
            long f = from;
            long t = to;
            series.forEach((label, s) -> {
                if (!ended.contains(label)) {
                    closeInterval(label, s, Math.max(f, s.openedAt()), t);
                }
            });
            lastClosed = to;
            progress.accept(to);
        }
        // Nothing at or after the duration runs: a run covers [0, duration), as its rows do.
        return result();
    }

    private void declare(Scenario.Variable v) {
        PublishedVariable p;
        try {
            p = broker.declare(v.name(), v.router(), v.frameBytes(), v.intervalNanos(), v.serviceClass(),
                    v.correlationGroup()).join();
        } catch (CompletionException e) {
            throw new IllegalArgumentException("variable " + v.name() + ": " + e.getCause().getMessage(), e.getCause());
        }
        declared.put(v.name(), p);
        SimRouter router = routers.get(v.router());
        Publisher pub = new Publisher(loop, p.id(), v.serviceClass(), v.frameBytes(), v.intervalNanos(), v.jitterNanos(),
                v.latencyBoundNanos(), EPOCH_BASE, v.clockOffsetNanos(), random.split(), router::receive,
                sample -> byVariable.getOrDefault(sample.variableId(), List.of())
                        .forEach(s -> s.published(sample.sequence(), sample.sourceTimeNanos())));
        publishers.put(v.name(), pub);
    }

    private long startOf(String variable) {
        return scenario.variables().stream().filter(v -> v.name().equals(variable)).findFirst().orElseThrow().startNanos();
    }

    private void subscribe(Scenario.Subscription s) {
        PublishedVariable v = declared.get(s.variable());
        if (v == null) {
            admissions.put(s.label(), "no variable '" + s.variable() + "' is declared");
            return;
        }
        AdmissionResult r;
        try {
            r = broker.subscribe(s.variable(), s.router(), s.link(), s.qos()).join();
        } catch (CompletionException | IllegalArgumentException e) {
            Throwable why = e instanceof CompletionException ? e.getCause() : e;
            admissions.put(s.label(), "refused: " + why.getMessage());
            return;
        }
        if (r instanceof AdmissionResult.Rejected rejected) {
            admissions.put(s.label(), "refused: " + rejected.reason());
            return;
        }
        admissions.put(s.label(), "admitted");
        subscriptionsByLabel.put(s.label(), s);
        subscriptionIds.put(s.label(), ((AdmissionResult.Admitted) r).subscriptionId());
        SubscriptionSeries ser = new SubscriptionSeries(s.label(), s.qos().intervalNanos(), v.intervalNanos(),
                s.qos().latencyBoundNanos());
        if (checking) {
            ser.check();
        }
        long[] before = dropTotals(s.label());
        ser.startFrom(loop.now(), before[0], before[1], before[2]);
        series.put(s.label(), ser);
        byVariable.computeIfAbsent(v.id(), k -> new ArrayList<>()).add(ser);
        deliveries.get(s.router() + "/" + s.link()).add(v.id(), ser);
    }

    private void startRaw(Scenario.RawSource rs, long id) {
        SimRouter router = routers.get(rs.router());
        if (router == null) {
            throw new IllegalArgumentException("raw source " + rs.label() + ": no router '" + rs.router() + "'");
        }
        int link = router.outLink(rs.link());
        if (link < 0) {
            throw new IllegalArgumentException("raw source " + rs.label() + ": router " + rs.router()
                    + " has no out-link '" + rs.link() + "'");
        }
        long capacity = router.outLinks().get(link).spec().capacity();
        FlowSpec spec = FlowSpec.of(id, ServiceClass.BE, 0, 0, capacity, rs.bufferDatagrams(), "");
        FlowEntry entry = new FlowEntry(1, id, link, spec, new long[0], 0, 0, 0);
        rawFlows.computeIfAbsent(rs.router(), k -> new ArrayList<>()).add(entry);
        router.submit(FlowCommand.install(entry));
        RawSender sender = new RawSender(loop, id, rs.sizes(), rs.intervalNanos(), rs.poisson(),
                rs.stopNanos() > 0 ? rs.stopNanos() : Long.MAX_VALUE, EPOCH_BASE, random.split(), router::receive);
        rawSenders.put(rs.label(), sender);
        sender.start(rs.startNanos());
    }

    private void apply(Scenario.Change c) {
        if (c instanceof Scenario.RateChange rc) {
            publishers.get(rc.variable()).interval(rc.intervalNanos());
            // What a subscription asks for stays judged against the declared interval, as the
            // routers' rate filters judge it: they know no other.
        } else if (c instanceof Scenario.RawRateChange rr) {
            rawSenders.get(rr.source()).interval(rr.intervalNanos());
        } else if (c instanceof Scenario.LinkState ls) {
            links.get(ls.link()).cut(!ls.up());
        } else if (c instanceof Scenario.RouterState rs) {
            SimRouter r = routers.get(rs.router());
            if (rs.up()) {
                r.restart();
                broker.flows().getOrDefault(rs.router(), List.of()).forEach(f -> new Installer().install(rs.router(), f));
                rawFlows.getOrDefault(rs.router(), List.of()).forEach(e -> r.submit(FlowCommand.install(e)));
                noticesReconnect(rs.router());
            } else {
                retire(r);
                r.crash();
                noticesLost(rs.router());
            }
        } else if (c instanceof Scenario.Unsubscribe u) {
            Long id = subscriptionIds.get(u.label());
            if (id != null) {
                long[] last = dropTotals(u.label());
                SubscriptionSeries ser = series.get(u.label());
                // what it had until now, then no more rows
                ser.close(Math.max(lastClosed, ser.openedAt()), loop.now(), last[0], last[1], last[2]);
                ended.add(u.label());
                subscriptionIds.remove(u.label());
                Scenario.Subscription sub = subscriptionsByLabel.get(u.label());
                long variable = declared.get(sub.variable()).id();
                byVariable.getOrDefault(variable, new ArrayList<>()).remove(ser);
                deliveries.get(sub.router() + "/" + sub.link()).remove(variable, ser);
                broker.unsubscribe(id);
            }
        }
    }

    private void closeInterval(String label, SubscriptionSeries s, long from, long to) {
        long[] t = dropTotals(label);
        s.close(from, to, t[0], t[1], t[2]);
    }

    /** Keeps what the flows of a router about to crash counted: its restarted engine counts from 0. */
    private void retire(SimRouter r) {
        flowPlaces.forEach((flowId, place) -> {
            if (place[0] == r) {
                long[] t = retired.computeIfAbsent(flowId, k -> new long[2]);
                t[0] += r.engine().flowCounter(flowId, QueueCounter.OVERFLOW_DROPS);
                t[1] += r.engine().flowCounter(flowId, QueueCounter.DEADLINE_MISSES);
            }
        });
    }

    /** The running totals of a subscription's overflow drops, deadline misses and copies lost on its paths. */
    private long[] dropTotals(String label) {
        long overflow = 0;
        long misses = 0;
        long lost = 0;
        Long id = subscriptionIds.get(label);
        AdmittedSubscription a = id == null ? null : broker.subscription(id);
        if (a != null) {
            for (long flowId : a.flowIds()) {
                Object[] place = flowPlaces.get(flowId);
                if (place == null) {
                    continue;
                }
                ForwardingEngine<SimPacket> engine = ((SimRouter) place[0]).engine();
                overflow += engine.flowCounter(flowId, QueueCounter.OVERFLOW_DROPS);
                misses += engine.flowCounter(flowId, QueueCounter.DEADLINE_MISSES);
                long[] before = retired.get(flowId);
                if (before != null) {
                    overflow += before[0];
                    misses += before[1];
                }
            }
            long variable = a.request().variable().value();
            java.util.Set<String> places = new java.util.HashSet<>(); // paths meet at their ends: count each once
            for (List<AdmissionResult.Hop> path : a.admitted().paths()) {
                for (AdmissionResult.Hop h : path) {
                    if (places.add(h.router())) {
                        lost += routers.get(h.router()).refusedOf(variable);
                    }
                    String link = h.next() == null ? h.router() + "/" + a.request().subscriberLink() : h.router() + "->" + h.next();
                    if (places.add(link) && links.containsKey(link)) {
                        lost += links.get(link).lostOf(variable);
                    }
                }
            }
        }
        return new long[] {overflow, misses, lost};
    }

    private SimulationResult result() {
        List<FlowInterval> rows = new ArrayList<>();
        List<FlowInterval> summaries = new ArrayList<>();
        for (SubscriptionSeries s : series.values()) {
            rows.addAll(s.rows());
            summaries.add(s.summary(0, endNanos));
        }
        Map<String, SimulationResult.RawFigures> raw = new LinkedHashMap<>();
        rawSenders.forEach((label, sender) -> {
            long[] got = rawDelivered.getOrDefault(sender.id(), new long[2]);
            raw.put(label, new SimulationResult.RawFigures(sender.sent(), sender.sentBytes(), got[0], got[1]));
        });
        Map<String, SimulationResult.LinkFigures> linkFigures = new LinkedHashMap<>();
        links.forEach((name, l) -> linkFigures.put(name, new SimulationResult.LinkFigures(l.datagramsSent(),
                l.datagramsDelivered(), l.datagramsLost(SimLink.Loss.QUEUE), l.datagramsLost(SimLink.Loss.WIRE),
                l.datagramsLost(SimLink.Loss.DOWN), l.packetsOnWire(), l.bytesOnWire())));
        return new SimulationResult(scenario.name(), scenario.seed(), endNanos, admissions, rows,
                summaries, raw, linkFigures, loop.executed(), decisions, notices, held(), adaptations);
    }
}
