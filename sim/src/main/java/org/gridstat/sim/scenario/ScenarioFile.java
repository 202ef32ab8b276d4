package org.gridstat.sim.scenario;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.gridstat.broker.api.RequestLimits;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.Names;
import org.gridstat.broker.topology.RouterNode;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.model.VariableName;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.sim.Simulation;
import org.gridstat.sim.net.LinkModel;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.YAMLException;
import org.gridstat.broker.install.FlowRates;
import org.gridstat.core.sched.EstimatorSettings;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * Reads a scenario file (YAML, format in {@code docs/simulator.md}) into a {@link Scenario},
 * checked against what the simulation can carry before anything runs. Every error names the file,
 * the line (or the {@code --set} override) and the field, for example
 * {@code flood.yaml line 31: subscriptions[1].variable: no variable 'pmu9' (declared: pmu1, pmu2)}.
 * The topology is a file named relative to the scenario, or given inline in the broker's topology
 * format, whose errors then name lines of the scenario file.
 */
public final class ScenarioFile {
    private static final long SECOND = 1_000_000_000L;
    static final List<String> TOP = List.of("name", "duration", "report", "seed", "admission", "congestion", "topology",
            "links", "variables", "subscriptions", "raw", "timeline");
    static final List<String> CONGESTION = List.of("control", "notices", "adaptation", "period", "weight", "minimum",
            "ceiling");
    static final List<String> PER_CLASS = List.of("hrt", "lrt", "be");
    static final List<String> VARIABLE = List.of("name", "router", "bytes", "rate", "interval", "class", "group", "start",
            "jitter", "deadline", "clockOffset");
    static final List<String> SUBSCRIPTION = List.of("label", "variable", "router", "link", "rate", "interval", "latency",
            "class", "paths", "at");
    static final List<String> RAW = List.of("label", "router", "link", "sizes", "rate", "interval", "poisson", "start", "stop",
            "buffer");
    static final List<String> LINK = List.of("capacity", "delay", "mtu", "queue", "discipline", "loss", "burstLoss",
            "outageEvery", "outageFor", "framing", "accessRate");
    static final List<String> BURST = List.of("enterBad", "leaveBad", "lossInBad");
    static final List<String> CHANGE = List.of("at", "variable", "raw", "rate", "interval", "cut", "restore", "crash",
            "restart", "unsubscribe");
    /** What a timeline entry does: exactly one of these keys. */
    private static final List<String> ACTIONS = List.of("variable", "raw", "cut", "restore", "crash", "restart",
            "unsubscribe");
    /** A raw source's queue in its router unless the scenario gives one, in datagrams. */
    public static final int DEFAULT_RAW_BUFFER = 64;
    /** A flow's buffer, and a link's packet queue: the most a router's flow may hold (FlowSpec). */
    private static final int MAX_BUFFER = 65_536;
    private static final long MILLISECOND = 1_000_000L;
    /** Report intervals a run may have: each subscription keeps a row per interval. */
    static final long MAX_ROWS = 100_000;

    private static final Map<String, ServiceClass> CLASSES = classes();
    private static final Map<String, LinkModel.Discipline> DISCIPLINES = disciplines();
    private static final Map<String, LinkModel.Framing> FRAMINGS = new java.util.LinkedHashMap<>(java.util.Map.of());

    static {
        FRAMINGS.put("ip", LinkModel.Framing.IP);
        FRAMINGS.put("atm", LinkModel.Framing.ATM);
    }
    private static final Map<String, Scenario.Admission> ADMISSIONS = admissions();

    private final Places places;
    private final Path directory;
    private Topology topology;
    private final Map<String, Scenario.Variable> variables = new LinkedHashMap<>();
    private final Map<String, Scenario.Subscription> subscriptions = new LinkedHashMap<>();
    private final Map<String, Scenario.RawSource> raw = new LinkedHashMap<>();
    /** Every link the simulation builds, by its name in {@code links} and the timeline. */
    private final Set<String> linkNames = new LinkedHashSet<>();
    /** Each router's delivery links: those its topology entry declares and those subscriptions name. */
    private final Map<String, Set<String>> delivery = new LinkedHashMap<>();

    private ScenarioFile(String source, Path directory) {
        this.places = new Places(source);
        this.directory = directory;
    }

    /**
     * Reads the scenario in {@code file}.
     *
     * @throws IllegalArgumentException naming the file, line and field of the first problem
     */
    public static Scenario load(Path file) {
        return load(file, Map.of());
    }

    /**
     * Reads the scenario in {@code file} with {@code --set} overrides applied first, in the map's
     * order: each key a dotted path into the YAML tree ({@code duration},
     * {@code links.r1->r2.discipline}, {@code subscriptions.0.rate} or {@code subscriptions.cc.rate}),
     * each value YAML.
     *
     * @throws IllegalArgumentException naming the file, line (or override) and field of the first problem
     */
    public static Scenario load(Path file, Map<String, String> overrides) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read the scenario: " + e, e);
        }
        Path dir = file.toAbsolutePath().getParent();
        String stem = file.getFileName().toString().replaceFirst("\\.[^.]*$", "");
        return parse(text, file.toString(), dir, stem, overrides);
    }

    /**
     * Reads scenario text; {@code source} names it in errors, a topology file is looked for
     * relative to {@code directory}, and a scenario without a {@code name} takes {@code defaultName}.
     */
    public static Scenario parse(String text, String source, Path directory, String defaultName,
                                 Map<String, String> overrides) {
        Node root;
        try {
            root = new Yaml(new LoaderOptions()).compose(new StringReader(text));
        } catch (YAMLException e) {
            throw new IllegalArgumentException(source + ": not YAML: " + e.getMessage(), e);
        }
        if (root == null) {
            throw new IllegalArgumentException(source + ": empty; a scenario needs at least a duration and a topology");
        }
        ScenarioFile f = new ScenarioFile(source, directory);
        if (!(root instanceof MappingNode m)) {
            throw f.places.error(root, "", "a scenario is a mapping of " + String.join(", ", TOP));
        }
        Overrides.apply(m, overrides, f.places);
        return f.read(Section.of(m, "", f.places, TOP), defaultName);
    }

    private Scenario read(Section top, String defaultName) {
        String name = top.text("name", defaultName);
        if (!Names.valid(name)) {
            throw top.error("name", "'" + name + "' must be " + Names.rule() + " (it names the output folder)");
        }
        long duration = top.positiveDuration("duration");
        long report = top.has("report") ? top.positiveDuration("report") : SECOND;
        if (report < MILLISECOND) {
            throw top.error("report", "must be at least 1ms, got " + nanosText(report));
        }
        if (duration / report > MAX_ROWS) {
            throw top.error("report", "the run would have " + duration / report + " rows per subscription, more than "
                    + MAX_ROWS + ": a longer report interval, or a shorter duration");
        }
        long seed = top.whole("seed", Long.MIN_VALUE, Long.MAX_VALUE, 1);
        Scenario.Admission admission = top.choice("admission", ADMISSIONS, Scenario.Admission.FULL);
        Scenario.Congestion congestion = congestion(top.section("congestion", CONGESTION));
        topology = topology(top);
        for (RouterNode r : topology.routers()) {
            Set<String> names = new LinkedHashSet<>();
            r.delivery().forEach(d -> names.add(d.name()));
            delivery.put(r.id(), names);
        }
        List<Node> list = top.list("variables");
        for (int i = 0; i < list.size(); i++) {
            variable(Section.of(list.get(i), "variables[" + i + "]", places, VARIABLE));
        }
        list = top.list("subscriptions");
        for (int i = 0; i < list.size(); i++) {
            subscription(Section.of(list.get(i), "subscriptions[" + i + "]", places, SUBSCRIPTION));
        }
        topology.links().forEach(l -> linkNames.add(l.name()));
        delivery.forEach((router, names) -> names.forEach(n -> linkNames.add(router + "/" + n)));
        list = top.list("raw");
        for (int i = 0; i < list.size(); i++) {
            rawSource(Section.of(list.get(i), "raw[" + i + "]", places, RAW));
        }
        Map<String, LinkModel> links = links(top.section("links", null));
        List<Scenario.Change> timeline = new ArrayList<>();
        list = top.list("timeline");
        for (int i = 0; i < list.size(); i++) {
            timeline.add(change(Section.of(list.get(i), "timeline[" + i + "]", places, CHANGE)));
        }
        try {
            return new Scenario(name, topology, duration, report, seed, admission, links, List.copyOf(variables.values()),
                    List.copyOf(subscriptions.values()), List.copyOf(raw.values()), timeline, congestion);
        } catch (IllegalArgumentException e) {
            throw top.error(e.getMessage());
        }
    }

    /** The {@code congestion} section: whether routers reassign, their estimator, the broker's MR and CR per class. */
    private static Scenario.Congestion congestion(Section c) {
        if (c == null) {
            return Scenario.Congestion.OFF;
        }
        boolean control = c.flag("control", false);
        boolean notices = c.flag("notices", control);
        if (notices && !control) {
            throw c.error("notices", "congestion notices need congestion control: set control to on, or notices to off");
        }
        long period = c.duration("period", EstimatorSettings.DEFAULT.periodNanos());
        if (period < 10 * MILLISECOND) {
            throw c.error("period", "must be at least 10ms, got " + nanosText(period));
        }
        double weight = c.decimal("weight", EstimatorSettings.DEFAULT.weight());
        if (!(weight > 0 && weight <= 1)) {
            throw c.error("weight", "must be in (0, 1], got " + weight);
        }
        FlowRates rates = FlowRates.DEFAULT;
        Section minimum = c.section("minimum", PER_CLASS);
        Section ceiling = c.section("ceiling", PER_CLASS);
        for (ServiceClass k : List.of(ServiceClass.HRT, ServiceClass.LRT, ServiceClass.BE)) {
            String key = k.name().toLowerCase(java.util.Locale.ROOT);
            double m = rates.minimum().get(k);
            double x = rates.ceiling().get(k);
            if (minimum != null && minimum.has(key)) {
                m = minimum.percent(key);
            }
            if (ceiling != null && ceiling.has(key)) {
                x = ceiling.decimal(key, x);
                if (!(x >= 1 && x <= 1_000)) {
                    throw ceiling.error(key, "must be 1..1000 times the assured rate, got " + x);
                }
            }
            rates = rates.with(k, m, x);
        }
        long adaptation = Scenario.Congestion.NO_ADAPTATION;
        String adapt = c.text("adaptation", "off");
        if (!adapt.equals("off") && !adapt.equals("false")) {
            if (!control) {
                throw c.error("adaptation", "global adaptation answers congestion control's alarms: set control to on");
            }
            adaptation = c.duration("adaptation", 0);
        }
        return new Scenario.Congestion(control, notices, new EstimatorSettings(period, weight), rates, adaptation);
    }

    private Topology topology(Section top) {
        Node n = top.value("topology");
        if (n == null) {
            throw top.error("topology", "missing (required): a topology file, or the topology inline");
        }
        if (n instanceof ScalarNode s) {
            Path file = directory == null ? Path.of(s.getValue()) : directory.resolve(s.getValue());
            if (!Files.isRegularFile(file)) {
                throw top.error("topology", "no topology file '" + s.getValue() + "' (looked for " + file + ")");
            }
            return Topology.load(file);
        }
        if (!(n instanceof MappingNode)) {
            throw top.error("topology", "a topology file's name, or a mapping of routers and links");
        }
        return Topology.parse(n, places.source(), places::of);
    }

    private void variable(Section v) {
        String name = v.text("name");
        try {
            VariableName.of(name);
        } catch (IllegalArgumentException e) {
            throw v.error("name", e.getMessage());
        }
        if (variables.containsKey(name)) {
            throw v.error("name", "variable '" + name + "' is declared twice");
        }
        long id = VariableId.ofName(VariableName.of(name)).value();
        for (Scenario.Variable other : variables.values()) {
            if (VariableId.ofName(VariableName.of(other.name())).value() == id) {
                throw v.error("name", "'" + name + "' maps to the id of variable '" + other.name() + "'; rename one of them");
            }
        }
        String router = router(v, "router");
        int bytes = (int) v.whole("bytes", WireFormat.HEADER_LENGTH, WireFormat.MAX_FRAME_LENGTH);
        long interval = v.period();
        if (interval < 0) {
            throw v.error("rate", "missing (required): rate (Hz) or interval");
        }
        ServiceClass c = v.choice("class", CLASSES, null);
        String group = v.text("group", "");
        if (!QosSpec.isCorrelationGroup(group)) {
            throw v.error("group", "'" + group + "' may hold at most 128 letters, digits, '_', '-', '.' and '/'");
        }
        long start = v.duration("start", 0);
        if (interval < RequestLimits.MIN_PUBLISHER_INTERVAL_NANOS || interval > RequestLimits.MAX_PUBLISHER_INTERVAL_NANOS) {
            throw v.error(v.has("rate") ? "rate" : "interval", "a publisher's interval must be 100us .. 1h, got "
                    + nanosText(interval));
        }
        long jitter = v.duration("jitter", 0);
        if (jitter >= interval) {
            throw v.error("jitter", "must be below the interval (" + nanosText(interval) + "), got " + nanosText(jitter));
        }
        long deadline = v.duration("deadline", 0);
        long offset = v.signedDuration("clockOffset", 0);
        variables.put(name, new Scenario.Variable(name, router, bytes, interval, c, group, start, jitter, deadline, offset));
    }

    private void subscription(Section s) {
        String label = s.text("label");
        if (subscriptions.containsKey(label)) {
            throw s.error("label", "subscription '" + label + "' is given twice; labels name subscriptions in the outputs"
                    + " and the timeline");
        }
        String variableName = s.text("variable");
        Scenario.Variable v = variables.get(variableName);
        if (v == null) {
            throw s.error("variable", "no variable '" + variableName + "' (declared: " + Section.known(variables.keySet()) + ")");
        }
        String router = router(s, "router");
        String link = s.text("link");
        if (!Names.valid(link)) {
            throw s.error("link", "'" + link + "' must be " + Names.rule());
        }
        if (topology.link(router, link) != null) {
            throw s.error("link", "'" + link + "' is router " + router + "'s link to router " + link
                    + ", not a delivery link to subscribers");
        }
        String refusal = topology.deliveryRefusal(router, link);
        if (refusal != null) {
            throw s.error("link", refusal);
        }
        long interval = s.period();
        if (interval < 0) {
            interval = v.intervalNanos();
        }
        if (interval < QosSpec.MIN_INTERVAL.toNanos() || interval > QosSpec.MAX_INTERVAL.toNanos()) {
            throw s.error(s.has("interval") ? "interval" : "rate", "a subscription's interval is 1 ms..1 h (1000 Hz to one"
                    + " an hour), got " + nanosText(interval));
        }
        long latency = s.duration("latency");
        if (latency < QosSpec.MIN_LATENCY_BOUND.toNanos() || latency > QosSpec.MAX_LATENCY_BOUND.toNanos()) {
            throw s.error("latency", "a latency bound is 1 ms..60 s, got " + nanosText(latency));
        }
        ServiceClass c = s.choice("class", CLASSES, v.serviceClass());
        int paths = (int) s.whole("paths", 1, QosSpec.MAX_PATHS, 1);
        long at = s.duration("at", 0);
        QosSpec qos = QosSpec.builder().interval(Duration.ofNanos(interval)).latencyBound(Duration.ofNanos(latency))
                .paths(paths).serviceClass(c).build();
        delivery.get(router).add(link);
        subscriptions.put(label, new Scenario.Subscription(label, variableName, router, link, qos, at));
    }

    private void rawSource(Section r) {
        String label = r.text("label");
        if (raw.containsKey(label)) {
            throw r.error("label", "raw source '" + label + "' is given twice");
        }
        String router = router(r, "router");
        String link = r.text("link");
        if (topology.link(router, link) == null && !delivery.get(router).contains(link)) {
            List<String> out = new ArrayList<>();
            topology.outgoing(topology.router(router)).forEach(l -> out.add(l.to().id()));
            out.addAll(delivery.get(router));
            throw r.error("link", "router " + router + " has no out-link '" + link + "' (its out-links: " + Section.known(out)
                    + ")");
        }
        List<Node> sizeNodes = r.list("sizes");
        if (sizeNodes.isEmpty()) {
            throw r.error("sizes", "missing (required): a list of UDP payload sizes in bytes, sent in turn");
        }
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < sizeNodes.size(); i++) {
            Node n = sizeNodes.get(i);
            String field = r.field("sizes") + "[" + i + "]";
            String t = n instanceof ScalarNode s ? s.getValue().trim().replace("_", "") : null;
            if (t == null || !t.matches("\\d{1,9}")) {
                throw places.error(n, field, "'" + (t == null ? "(a list or mapping)" : t) + "' is not a whole number");
            }
            int size = Integer.parseInt(t);
            if (size < 1 || size > WireFormat.MAX_DATAGRAM_LENGTH) {
                throw places.error(n, field, "a UDP payload is 1.." + WireFormat.MAX_DATAGRAM_LENGTH + " bytes, got " + size);
            }
            sizes.add(size);
        }
        long interval = r.period();
        if (interval < 0) {
            throw r.error("rate", "missing (required): rate (Hz) or interval");
        }
        boolean poisson = r.flag("poisson", false);
        long start = r.duration("start", 0);
        long stop = r.duration("stop", 0);
        if (r.has("stop") && stop <= start) {
            throw r.error("stop", "must be after start (" + nanosText(start) + "), got " + nanosText(stop));
        }
        int buffer = (int) r.whole("buffer", 1, MAX_BUFFER, DEFAULT_RAW_BUFFER);
        raw.put(label, new Scenario.RawSource(label, router, link, sizes, interval, poisson, start, stop, buffer));
    }

    private Map<String, LinkModel> links(Section links) {
        Map<String, LinkModel> out = new LinkedHashMap<>();
        if (links == null) {
            return out;
        }
        for (String name : links.keys()) {
            if (!linkNames.contains(name)) {
                throw places.error(links.keyNode(name), links.field(name), "no link '" + name + "': a link is 'a->b' for"
                        + " a topology link or 'router/name' for a delivery link (links: " + Section.known(linkNames) + ")");
            }
            Node value = links.value(name);
            if (value == null) {
                throw places.error(links.keyNode(name), links.field(name), "expected a mapping of " + String.join(", ", LINK));
            }
            out.put(name, link(name, Section.of(value, links.field(name), places, LINK)));
        }
        return out;
    }

    private LinkModel link(String name, Section l) {
        long capacity;
        long delay;
        int slash = name.indexOf('/');
        if (slash < 0) {
            Link t = topology.link(name.substring(0, name.indexOf("->")), name.substring(name.indexOf("->") + 2));
            capacity = t.bandwidth();
            delay = t.delayNanos();
        } else {
            ControlMessage.OutLink declared = topology.router(name.substring(0, slash)).deliveryLink(name.substring(slash + 1));
            capacity = declared != null ? declared.capacity() : Simulation.DELIVERY_CAPACITY;
            delay = 0;
        }
        capacity = l.whole("capacity", 1, Long.MAX_VALUE, capacity);
        delay = l.duration("delay", delay);
        int mtu = (int) l.whole("mtu", 576, 65_535, LinkModel.DEFAULT_MTU);
        int queue = (int) l.whole("queue", 1, MAX_BUFFER, LinkModel.DEFAULT_QUEUE_PACKETS);
        LinkModel.Discipline discipline = l.choice("discipline", DISCIPLINES, LinkModel.Discipline.SCHEDULER);
        LinkModel.Framing framing = l.choice("framing", FRAMINGS, LinkModel.Framing.IP);
        long accessRate = l.whole("accessRate", 0, Long.MAX_VALUE, 0);
        if (accessRate > 0 && accessRate < LinkModel.MIN_ACCESS_RATE) {
            throw l.error("accessRate", "must be 0 (fragments together) or at least " + LinkModel.MIN_ACCESS_RATE
                    + " B/s, got " + accessRate);
        }
        double loss = l.probability("loss", 0);
        LinkModel.BurstLoss burst = LinkModel.BurstLoss.NONE;
        Section b = l.section("burstLoss", BURST);
        if (b != null) {
            double enter = b.probability("enterBad", 0);
            double leave = b.probability("leaveBad", 1);
            double lossInBad = b.probability("lossInBad", 1);
            if (enter > 0 && leave == 0) {
                throw b.error("leaveBad", "a link that turns bad must be able to leave it: above 0");
            }
            burst = new LinkModel.BurstLoss(enter, leave, lossInBad);
        }
        long every = l.duration("outageEvery", 0);
        long outage = l.duration("outageFor", 0);
        if ((every > 0 && every < Section.MIN_PERIOD) || (outage > 0 && outage < Section.MIN_PERIOD)) {
            throw l.error(every > 0 && every < Section.MIN_PERIOD ? "outageEvery" : "outageFor", "must be at least 1us");
        }
        if ((every > 0) != (outage > 0)) {
            throw l.error(every > 0 ? "outageFor" : "outageEvery", "outages need both outageEvery (mean time between)"
                    + " and outageFor (mean duration), above zero, or neither");
        }
        try {
            return new LinkModel(capacity, delay, mtu, queue, discipline, loss, burst, every, outage, framing, accessRate);
        } catch (IllegalArgumentException e) {
            throw l.error(e.getMessage());
        }
    }

    private Scenario.Change change(Section c) {
        long at = c.duration("at");
        List<String> actions = c.keys().stream().filter(ACTIONS::contains).toList();
        if (actions.size() != 1) {
            throw c.error("a timeline entry does exactly one of: " + String.join(", ", ACTIONS)
                    + (actions.isEmpty() ? "" : "; this one gives " + String.join(", ", actions)));
        }
        String action = actions.get(0);
        boolean rated = action.equals("variable") || action.equals("raw");
        for (String k : List.of("rate", "interval")) {
            if (c.has(k) && !rated) {
                throw c.error(k, "a rate goes with 'variable' or 'raw', not '" + action + "'");
            }
        }
        String what = c.text(action);
        switch (action) {
            case "variable" -> {
                Scenario.Variable v = variables.get(what);
                if (v == null) {
                    throw c.error(action, "no variable '" + what + "' (declared: " + Section.known(variables.keySet()) + ")");
                }
                long interval = period(c);
                if (v.jitterNanos() >= interval) {
                    throw c.error(c.has("rate") ? "rate" : "interval", "the interval (" + nanosText(interval)
                            + ") must stay above the variable's jitter (" + nanosText(v.jitterNanos()) + ")");
                }
                return new Scenario.RateChange(at, what, interval);
            }
            case "raw" -> {
                if (!raw.containsKey(what)) {
                    throw c.error(action, "no raw source '" + what + "' (raw sources: " + Section.known(raw.keySet()) + ")");
                }
                return new Scenario.RawRateChange(at, what, period(c));
            }
            case "cut", "restore" -> {
                if (!linkNames.contains(what)) {
                    throw c.error(action, "no link '" + what + "' (links: " + Section.known(linkNames) + ")");
                }
                return new Scenario.LinkState(at, what, action.equals("restore"));
            }
            case "crash", "restart" -> {
                return new Scenario.RouterState(at, router(c, action), action.equals("restart"));
            }
            default -> {
                if (!subscriptions.containsKey(what)) {
                    throw c.error(action, "no subscription '" + what + "' (subscriptions: "
                            + Section.known(subscriptions.keySet()) + ")");
                }
                return new Scenario.Unsubscribe(at, what);
            }
        }
    }

    private static long period(Section c) {
        long interval = c.period();
        if (interval < 0) {
            throw c.error("rate", "missing (required): the new rate (Hz) or interval");
        }
        return interval;
    }

    private String router(Section s, String key) {
        String id = s.text(key);
        if (topology.router(id) == null) {
            List<String> ids = topology.routers().stream().map(RouterNode::id).toList();
            throw s.error(key, "no router '" + id + "' in the topology (routers: " + Section.known(ids) + ")");
        }
        return id;
    }

    /** A duration as a file may give it: {@code 2s}, {@code 16.666667ms}. */
    static String nanosText(long nanos) {
        if (Math.abs(nanos) >= SECOND) {
            return java.math.BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString() + "s";
        }
        return java.math.BigDecimal.valueOf(nanos, 6).stripTrailingZeros().toPlainString() + "ms";
    }

    private static Map<String, ServiceClass> classes() {
        Map<String, ServiceClass> m = new LinkedHashMap<>();
        for (ServiceClass c : ServiceClass.values()) {
            if (c != ServiceClass.CONTROL) {
                m.put(c.name(), c);
            }
        }
        return m;
    }

    private static Map<String, LinkModel.Discipline> disciplines() {
        Map<String, LinkModel.Discipline> m = new LinkedHashMap<>();
        for (LinkModel.Discipline d : LinkModel.Discipline.values()) {
            m.put(d.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'), d);
        }
        return m;
    }

    private static Map<String, Scenario.Admission> admissions() {
        Map<String, Scenario.Admission> m = new LinkedHashMap<>();
        for (Scenario.Admission a : Scenario.Admission.values()) {
            m.put(a.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'), a);
        }
        return m;
    }
}
