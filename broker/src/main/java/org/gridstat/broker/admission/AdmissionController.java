package org.gridstat.broker.admission;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import org.gridstat.broker.admission.AdmissionResult.Admitted;
import org.gridstat.broker.admission.AdmissionResult.Hop;
import org.gridstat.broker.admission.AdmissionResult.Rejected;
import org.gridstat.broker.paths.BoundedDisjointPaths;
import org.gridstat.broker.paths.DisjointPaths;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.RouterNode;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.ServiceClass;

/**
 * Admits a subscription only if k node-disjoint paths exist on which every link has the class
 * bandwidth it needs, every router the forwarding capacity, and every path meets the latency bound
 * with its propagation delays, a frame's transmission on each link and per-hop queueing budgets. When the least-cost k paths break the
 * bound, k paths that each meet it are searched for ({@link BoundedDisjointPaths}) before refusing.
 * A subscription asking a higher rate than the variable is published at is refused, not capped.
 *
 * <p>Link sharing follows the routers: a variable crossing a link is one flow there
 * ({@link SharedFlow}), in the most urgent class of the subscriptions behind it, at the highest of
 * their rates (multicast: the largest rate, not the sum), counted in that class. Each other class
 * it has subscribers in holds what the flow would need there once the more urgent ones left, so a
 * teardown never overfills a class. Admitting checks, in every class, what the subscription adds
 * to the flow's holding there. No flow may gather more distinct intervals than the control channel
 * can install, the subscriber router's delivery flow included. The end-to-end bound is split into hop budgets in proportion to each hop's delay, transmission
 * and queueing budget. Each hop also gets the least delay of the path from its departure on
 * (propagation plus transmission of one frame on its own link and every later one), so that a
 * router drops an event as a deadline miss only once it cannot be delivered in time, and never
 * sends one that cannot.
 *
 * <p>Bandwidth is not enough for hop deadlines: on every link of the paths found, the HRT and LRT
 * flows, with the subscription's change to its flow there (a new flow, a higher rate, a tighter
 * hop deadline), must pass an EDF demand-bound test ({@link HopDeadlineTest}, whose comment gives
 * the model), so that an admitted set is schedulable by construction. Paths that fail it are
 * searched around (the failing links left out, at most {@value #MAX_DETOURS} times) before the
 * subscription is refused with the first link, class and busy interval that failed. A modification
 * is admitted afresh, so it is tested the same way; a restored subscription is not tested again.
 * Single-threaded; the broker serialises admissions.
 */
public final class AdmissionController {
    /** How often paths failing the deadline test are searched around before refusing. */
    static final int MAX_DETOURS = 2;

    private final Topology topology;
    private final HopDeadlineTest deadlineTest;
    private final boolean testDeadlines;
    /** Per link, per variable: the flow it is there; null for a link no flow crosses. */
    private final Map<Long, SharedFlow>[] linkFlows;
    /**
     * Per variable, the links it has a flow on: the path search asks each link it relaxes whether
     * the variable flows there, and most variables flow on few links (a new one on none), so
     * this answers without a lookup in each link's table.
     */
    private final Map<Long, java.util.BitSet> variableLinks = new HashMap<>();
    /** The subscriber routers' delivery flows (out-links outside the topology), for their intervals. */
    private final Map<Delivery, SharedFlow> deliveries = new HashMap<>();
    private final DisjointPaths pathFinder;
    private final BoundedDisjointPaths boundedFinder;
    /** Per link and class: what the flows hold of the class's share, bytes per second. */
    private final long[][] linkReserved;
    /** Per link and class: the assured rates of the flows installed in that class, bytes per second. */
    private final long[][] linkInstalled;
    /** Per router and variable: the event rates it forwards; its load is the sum of the maxima. */
    private final Map<Integer, Map<Long, TreeMap<Long, Integer>>> routerNeeds = new HashMap<>();
    private final long[] routerReserved;
    private final Map<Long, Admission> admitted = new HashMap<>();

    /**
     * A subscription's paths, with its hop deadline on each of their links ({@code null}: none);
     * {@code delivers} if its subscriber router delivers it on the subscriber link.
     */
    private record Admission(SubscriptionRequest request, List<List<Link>> paths, long[][] deadlines,
                             RouterNode subscriber, boolean delivers) {
    }

    /** Paths found, or why none were. */
    private record Found(List<List<Link>> paths, Rejected refusal) {
    }

    private record Delivery(int router, String link, long variable) {
        static Delivery of(RouterNode at, SubscriptionRequest r) {
            return new Delivery(at.index(), r.subscriberLink(), r.variable().value());
        }
    }

    public AdmissionController(Topology topology) {
        this(topology, true);
    }

    /**
     * @param testDeadlines whether HRT and LRT flows must pass the EDF test of hop deadlines, as a
     *                      broker's always do; off, bandwidth alone admits (the simulator's baseline of
     *                      a network without deadline admission)
     */
    @SuppressWarnings("unchecked")
    public AdmissionController(Topology topology, boolean testDeadlines) {
        this.testDeadlines = testDeadlines;
        this.topology = topology;
        this.pathFinder = new DisjointPaths(topology);
        this.boundedFinder = new BoundedDisjointPaths(topology);
        this.linkFlows = new Map[topology.links().size()];
        this.linkReserved = new long[topology.links().size()][ServiceClass.values().length];
        this.linkInstalled = new long[topology.links().size()][ServiceClass.values().length];
        this.routerReserved = new long[topology.routers().size()];
        this.deadlineTest = new HopDeadlineTest(topology.links().size());
    }

    public AdmissionResult admit(SubscriptionRequest r) {
        return admit(r, l -> false);
    }

    /** The same over paths that leave out every link {@code avoid} names (global adaptation moving a subscription off one). */
    public AdmissionResult admit(SubscriptionRequest r, Predicate<Link> avoid) {
        if (admitted.containsKey(r.subscriptionId())) {
            return new Rejected(r.subscriptionId(), "subscription " + r.subscriptionId() + " is already admitted");
        }
        RouterNode from = topology.router(r.publisherRouter());
        RouterNode to = topology.router(r.subscriberRouter());
        if (from == null || to == null) {
            return new Rejected(r.subscriptionId(), "no router '" + (from == null ? r.publisherRouter() : r.subscriberRouter())
                    + "' in the topology");
        }
        String invalid = beyondWhatCanBeCarried(r, to);
        if (invalid != null) {
            return new Rejected(r.subscriptionId(), invalid, true);
        }
        ServiceClass c = r.qos().serviceClass();
        long bytes = r.bytesPerSecond();
        long events = r.eventsPerSecond();
        Long variable = r.variable().value();
        int k = r.qos().paths();
        long bound = r.qos().latencyBoundNanos();
        List<List<Link>> paths;
        int wire = r.wireBytes();
        // A hop costs its link's propagation and the frame's transmission at the link's bandwidth, and
        // its router's queueing budget: a bound that the transmissions alone exceed is never admitted.
        ToLongFunction<Link> cost = l -> l.minTransitNanos(wire) + l.from().queueingBudgetNanos();
        Predicate<Link> eligible = null;
        if (from == to) {
            if (k > 1) {
                return new Rejected(r.subscriptionId(), k + " disjoint paths asked, but publisher and subscriber share router " + from.id());
            }
            paths = List.of(List.of());
        } else {
            java.util.BitSet onLinks = variableLinks.get(variable);
            eligible = l -> !avoid.test(l)
                    && fits(l, c, r, onLinks != null && onLinks.get(l.index()) ? variable : null, bytes, events);
            Found found = search(r, from, to, k, cost, eligible, true);
            if (found.refusal() != null) {
                return found.refusal();
            }
            paths = found.paths();
        }
        if (from == to && to.queueingBudgetNanos() > bound) {
            return new Rejected(r.subscriptionId(), String.format(
                    "path 1 (%s) needs %.1f ms of delay, transmission and queueing budgets, more than the %.1f ms bound",
                    from.id(), to.queueingBudgetNanos() / 1e6, bound / 1e6));
        }
        String routerShort = routerShortage(from, r);
        if (routerShort != null) {
            return new Rejected(r.subscriptionId(), routerShort);
        }
        List<List<Hop>> hops = hopsOf(paths, to, bound, r.wireBytes());
        String late = null;
        java.util.BitSet avoided = new java.util.BitSet();
        for (int detour = 0; ; detour++) {
            String why = lateLink(r, paths, hops, avoided);
            if (why == null) {
                break;
            }
            late = late == null ? why : late;
            if (eligible == null || detour == MAX_DETOURS) {
                return new Rejected(r.subscriptionId(), late);
            }
            Found around = search(r, from, to, k, cost, eligible.and(l -> !avoided.get(l.index())), false);
            if (around.refusal() != null) {
                return new Rejected(r.subscriptionId(), late);
            }
            paths = around.paths();
            hops = hopsOf(paths, to, bound, r.wireBytes());
        }
        long[][] deadlines = deadlines(paths, hops);
        reserve(r, paths, deadlines, from, to, +1);
        admitted.put(r.subscriptionId(), new Admission(r, paths, deadlines, to, true));
        return new Admitted(r.subscriptionId(), hops);
    }

    /**
     * k paths from {@code from} to {@code to} over eligible links, each within the bound; else the
     * refusal, explained ({@code explain}) or not.
     */
    private Found search(SubscriptionRequest r, RouterNode from, RouterNode to, int k, ToLongFunction<Link> cost,
                         Predicate<Link> eligible, boolean explain) {
        List<List<Link>> paths = pathFinder.paths(from, to, k, cost, eligible);
        if (paths.size() < k) {
            return new Found(null, explain ? explainShortage(r, from, to, k, cost) : new Rejected(r.subscriptionId(), ""));
        }
        long bound = r.qos().latencyBoundNanos();
        for (int i = 0; i < paths.size(); i++) {
            long need = pathCost(paths.get(i), to, r.wireBytes());
            if (need > bound) {
                String tooLong = String.format(
                        "path %d (%s) needs %.1f ms of delay, transmission and queueing budgets, more than the %.1f ms bound",
                        i + 1, describe(paths.get(i), from), need / 1e6, bound / 1e6);
                BoundedDisjointPaths.Result within = boundedFinder.search(from, to, k,
                        bound - to.queueingBudgetNanos(), cost, eligible);
                if (within.outcome() != BoundedDisjointPaths.Outcome.FOUND) {
                    return new Found(null, new Rejected(r.subscriptionId(), tooLong + "; " + whyNoneWithin(within, k)));
                }
                return new Found(within.paths(), null);
            }
        }
        return new Found(paths, null);
    }

    private static List<List<Hop>> hopsOf(List<List<Link>> paths, RouterNode to, long bound, int wireBytes) {
        List<List<Hop>> hops = new ArrayList<>(paths.size());
        for (List<Link> p : paths) {
            hops.add(budgets(p, to, bound, wireBytes));
        }
        return hops;
    }

    /**
     * Per path and link, the hop deadline: the hop's budget less the link's propagation delay, the
     * time an event may spend queued and sent there.
     */
    private static long[][] deadlines(List<List<Link>> paths, List<List<Hop>> hops) {
        long[][] out = new long[paths.size()][];
        for (int i = 0; i < paths.size(); i++) {
            List<Link> p = paths.get(i);
            out[i] = new long[p.size()];
            for (int j = 0; j < p.size(); j++) {
                out[i][j] = hopDeadline(hops.get(i).get(j).budgetNanos(), p.get(j));
            }
        }
        return out;
    }

    private static long hopDeadline(long budgetNanos, Link l) {
        return Math.max(0, budgetNanos - l.delayNanos());
    }

    /**
     * The first refusal of the deadline test on the paths' links with {@code r} added, or null;
     * every link that fails is set in {@code failed}.
     */
    private String lateLink(SubscriptionRequest r, List<List<Link>> paths, List<List<Hop>> hops, java.util.BitSet failed) {
        if (!testDeadlines) {
            return null;
        }
        String first = null;
        java.util.BitSet onLinks = variableLinks.get(r.variable().value());
        for (int i = 0; i < paths.size(); i++) {
            List<Link> p = paths.get(i);
            for (int j = 0; j < p.size(); j++) {
                Link l = p.get(j);
                SharedFlow f = onLinks != null && onLinks.get(l.index()) ? flowOn(l, r) : null;
                String why = deadlineTest.refusal(l, f, r, hopDeadline(hops.get(i).get(j).budgetNanos(), l));
                if (why != null) {
                    failed.set(l.index());
                    first = first == null ? why : first;
                }
            }
        }
        return first;
    }

    /**
     * Admits a subscription over one given path (a parent broker's border links), checking each
     * link's class bandwidth and each router's capacity, and reserves it; no bound is split, so no
     * hop deadline is tested (its flows count as due within their period in others' tests).
     */
    public AdmissionResult admitOver(SubscriptionRequest r, List<Link> path) {
        if (admitted.containsKey(r.subscriptionId())) {
            return new Rejected(r.subscriptionId(), "subscription " + r.subscriptionId() + " is already admitted");
        }
        ServiceClass c = r.qos().serviceClass();
        RouterNode from = path.isEmpty() ? known(r.publisherRouter()) : path.get(0).from();
        for (Link l : path) {
            String why = shortage(l, c, r);
            if (why != null) {
                return new Rejected(r.subscriptionId(), why);
            }
        }
        reserve(r, List.of(path), null, from, null, +1);
        admitted.put(r.subscriptionId(), new Admission(r, List.of(path), null,
                path.isEmpty() ? from : path.get(path.size() - 1).to(), false));
        return new Admitted(r.subscriptionId(), List.of(List.of()));
    }

    /**
     * Takes back a subscription admitted earlier (loaded from the broker's store) with the paths it
     * holds, without searching or checking capacity again: what was admitted stays admitted.
     * Returns the same paths with each hop's least rest-of-path delay computed again from the
     * topology, plus what the stored last hop had after the path (a segment's part beyond its
     * cloud): a subscription stored before rest delays were kept gets them, with none beyond.
     *
     * @throws IllegalArgumentException if a hop names a router or link the topology lacks
     */
    public Admitted restore(SubscriptionRequest r, Admitted held) {
        if (admitted.containsKey(r.subscriptionId())) {
            throw new IllegalArgumentException("subscription " + r.subscriptionId() + " is already admitted");
        }
        RouterNode from = known(r.publisherRouter());
        RouterNode to = known(r.subscriberRouter());
        List<List<Link>> paths = new ArrayList<>();
        List<List<Hop>> restored = new ArrayList<>();
        long[][] deadlines = new long[held.paths().size()][];
        for (List<Hop> hops : held.paths()) {
            List<Link> path = new ArrayList<>();
            List<Long> due = new ArrayList<>();
            for (Hop h : hops) {
                if (h.next() != null) {
                    Link l = topology.link(h.router(), h.next());
                    if (l == null) {
                        throw new IllegalArgumentException("subscription " + r.subscriptionId() + ": no link "
                                + h.router() + "->" + h.next() + " in the topology");
                    }
                    path.add(l);
                    due.add(hopDeadline(h.budgetNanos(), l));
                }
            }
            deadlines[paths.size()] = due.stream().mapToLong(Long::longValue).toArray();
            paths.add(path);
            long after = hops.isEmpty() ? 0 : hops.get(hops.size() - 1).minRestDelayNanos();
            long[] rest = minRestDelays(path, r.wireBytes());
            List<Hop> again = new ArrayList<>(hops.size());
            for (int i = 0; i < hops.size(); i++) {
                Hop h = hops.get(i);
                again.add(new Hop(h.router(), h.next(), h.budgetNanos(), h.downstreamBudgetNanos(),
                        (i < rest.length ? rest[i] : 0) + after));
            }
            restored.add(again);
        }
        reserve(r, paths, deadlines, from, to, +1);
        this.admitted.put(r.subscriptionId(), new Admission(r, paths, deadlines, to, true));
        return new Admitted(held.subscriptionId(), restored);
    }

    private RouterNode known(String id) {
        RouterNode n = topology.router(id);
        if (n == null) {
            throw new IllegalArgumentException("no router '" + id + "' in the topology");
        }
        return n;
    }

    /** Frees a subscription's reservations; returns whether it was admitted. */
    public boolean release(long subscriptionId) {
        Admission a = admitted.remove(subscriptionId);
        if (a == null) {
            return false;
        }
        reserve(a.request(), a.paths(), a.deadlines(), topology.router(a.request().publisherRouter()),
                a.delivers() ? a.subscriber() : null, -1);
        return true;
    }

    /**
     * Bytes per second of a link's class share held by its flows: the assured rates of those
     * installed in the class and what those installed in a more urgent one stand by with.
     */
    public long reserved(Link l, ServiceClass c) {
        return linkReserved[l.index()][c.ordinal()];
    }

    /** Bytes per second of assured rate the flows installed in a class on a link have; at most {@link #reserved}. */
    public long installed(Link l, ServiceClass c) {
        return linkInstalled[l.index()][c.ordinal()];
    }

    /** Events per second reserved on a router. */
    public long reserved(RouterNode r) {
        return routerReserved[r.index()];
    }

    public int admittedCount() {
        return admitted.size();
    }

    private long linkFree(Link l, ServiceClass c) {
        return l.classCapacity(c) - linkReserved[l.index()][c.ordinal()];
    }

    /**
     * Whether the link and the router it leads to can carry the stream. Most links carry no flow
     * of the variable, so the flow's lookup runs only where some flow crosses the link.
     */
    /** @param variable the variable if it has a flow on {@code l}, else {@code null} */
    private boolean fits(Link l, ServiceClass c, SubscriptionRequest r, Long variable, long bytes, long events) {
        Map<Long, SharedFlow> flows = variable == null ? null : linkFlows[l.index()];
        SharedFlow f = flows == null ? null : flows.get(variable);
        if (f == null) {
            if (linkFree(l, c) < bytes) {
                return false;
            }
        } else if (f.distinctIntervalsWith(r) > SharedFlow.MAX_INTERVALS || shortClass(l, f, r) != null) {
            return false;
        }
        long routerFree = routerFree(l.to());
        return routerFree >= events || routerFree >= routerIncrement(l.to(), r);
    }

    /** The first class whose share lacks what adding {@code r} to the flow asks of it, or null. */
    private ServiceClass shortClass(Link l, SharedFlow f, SubscriptionRequest r) {
        for (ServiceClass k : ServiceClass.values()) {
            if (linkFree(l, k) < f.heldWith(r, k) - f.held(k)) {
                return k;
            }
        }
        return null;
    }

    private SharedFlow flowOn(Link l, SubscriptionRequest r) {
        Map<Long, SharedFlow> flows = linkFlows[l.index()];
        return flows == null ? null : flows.get(r.variable().value());
    }

    /**
     * Why the request asks what no path can carry, or null: a rate above the publisher's, a
     * subscriber link that is the router's link to a neighbour, or a delivery flow with too many rates.
     */
    private String beyondWhatCanBeCarried(SubscriptionRequest r, RouterNode to) {
        long asked = r.qos().intervalNanos();
        long published = r.publisherIntervalNanos();
        if (published > 0 && asked < published) {
            return String.format("variable %d is published at %s; %s asked (a higher rate is refused, not capped)",
                    r.variable().value(), hz(published), hz(asked));
        }
        if (!r.subscriberLink().isEmpty() && topology.link(to.id(), r.subscriberLink()) != null) {
            return String.format("subscriber link '%s' at router %s is its link to router %s", r.subscriberLink(),
                    to.id(), r.subscriberLink());
        }
        SharedFlow d = deliveries.get(Delivery.of(to, r));
        if (d != null && d.distinctIntervalsWith(r) > SharedFlow.MAX_INTERVALS) {
            return tooManyRates("link " + r.subscriberLink() + " at router " + to.id(), r, d);
        }
        return null;
    }

    private static String tooManyRates(String where, SubscriptionRequest r, SharedFlow f) {
        return String.format("%s: the flow of variable %d would gather %d distinct rates, more than the %d one flow can carry",
                where, r.variable().value(), f.distinctIntervalsWith(r), SharedFlow.MAX_INTERVALS);
    }

    private static String hz(long intervalNanos) {
        long whole = org.gridstat.core.filter.SampleGrid.ofInterval(intervalNanos).wholeRate();
        return whole > 0 ? whole + " Hz" : String.format("%.3f Hz", 1e9 / intervalNanos);
    }

    private static String whyNoneWithin(BoundedDisjointPaths.Result r, int k) {
        String what = k == 1 ? "path" : k + " node-disjoint paths";
        return r.outcome() == BoundedDisjointPaths.Outcome.NONE
                ? String.format("no %s within the bound exist over links with room for the stream", what)
                : String.format("the search for %s within the bound gave up after %,d steps", what, r.steps());
    }

    private long routerFree(RouterNode n) {
        return n.forwardingCapacity() - routerReserved[n.index()];
    }

    private long routerIncrement(RouterNode n, SubscriptionRequest r) {
        TreeMap<Long, Integer> rates = routerNeeds.getOrDefault(n.index(), Map.of()).get(r.variable().value());
        long current = rates == null || rates.isEmpty() ? 0 : rates.lastKey();
        return Math.max(0, r.eventsPerSecond() - current);
    }

    /**
     * Adds ({@code sign} +1) or takes back (-1) a subscription's use of its paths' flows, with its
     * hop deadline on each link ({@code deadlines} per path and link, or {@code null}: none), routers
     * and, if {@code subscriber} is given, delivery flow.
     */
    private void reserve(SubscriptionRequest r, List<List<Link>> paths, long[][] deadlines, RouterNode from,
                         RouterNode subscriber, int sign) {
        Long variable = r.variable().value();
        java.util.Set<Integer> routers = new java.util.LinkedHashSet<>();
        routers.add(from.index());
        for (int i = 0; i < paths.size(); i++) {
            List<Link> p = paths.get(i);
            for (int j = 0; j < p.size(); j++) {
                Link l = p.get(j);
                long deadline = deadlines == null ? SharedFlow.NO_DEADLINE : deadlines[i][j];
                Map<Long, SharedFlow> flows = linkFlows[l.index()];
                if (flows == null) {
                    flows = linkFlows[l.index()] = new HashMap<>();
                }
                SharedFlow f = flows.computeIfAbsent(variable, x -> new SharedFlow());
                variableLinks.computeIfAbsent(variable, x -> new java.util.BitSet()).set(l.index());
                count(l, f, -1);
                share(f, r, deadline, sign);
                count(l, f, +1);
                deadlineTest.changed(l, f);
                if (f.isEmpty()) {
                    flows.remove(variable);
                    if (flows.isEmpty()) {
                        linkFlows[l.index()] = null;
                    }
                    java.util.BitSet on = variableLinks.get(variable);
                    on.clear(l.index());
                    if (on.isEmpty()) {
                        variableLinks.remove(variable);
                    }
                }
                routers.add(l.to().index());
            }
        }
        if (subscriber != null) {
            Delivery key = Delivery.of(subscriber, r);
            SharedFlow d = deliveries.computeIfAbsent(key, x -> new SharedFlow());
            share(d, r, SharedFlow.NO_DEADLINE, sign);
            if (d.isEmpty()) {
                deliveries.remove(key);
            }
        }
        for (int n : routers) {
            TreeMap<Long, Integer> rates = routerNeeds.computeIfAbsent(n, x -> new HashMap<>())
                    .computeIfAbsent(r.variable().value(), x -> new TreeMap<>());
            long before = rates.isEmpty() ? 0 : rates.lastKey();
            count(rates, r.eventsPerSecond(), sign);
            long after = rates.isEmpty() ? 0 : rates.lastKey();
            routerReserved[n] += after - before;
        }
    }

    /** Adds (+1) or takes off (-1) what a flow holds and has installed on a link. */
    private void count(Link l, SharedFlow f, int sign) {
        if (f.isEmpty()) {
            return;
        }
        long[] reserved = linkReserved[l.index()];
        for (ServiceClass k : ServiceClass.values()) {
            reserved[k.ordinal()] += sign * f.held(k);
        }
        linkInstalled[l.index()][f.serviceClass().ordinal()] += sign * f.assuredRate();
    }

    private static void share(SharedFlow f, SubscriptionRequest r, long deadline, int sign) {
        if (sign > 0) {
            f.add(r, deadline);
        } else {
            f.remove(r, deadline);
        }
    }

    private static void count(TreeMap<Long, Integer> multiset, long value, int sign) {
        int n = multiset.getOrDefault(value, 0) + sign;
        if (n <= 0) {
            multiset.remove(value);
        } else {
            multiset.put(value, n);
        }
    }

    /**
     * Propagation, a frame's transmission and the queueing budget of every hop, the subscriber's
     * router's local delivery included.
     */
    private static long pathCost(List<Link> path, RouterNode to, int wireBytes) {
        long sum = to.queueingBudgetNanos();
        for (Link l : path) {
            sum += l.minTransitNanos(wireBytes) + l.from().queueingBudgetNanos();
        }
        return sum;
    }

    private static List<Hop> budgets(List<Link> path, RouterNode to, long bound, int wireBytes) {
        long total = pathCost(path, to, wireBytes);
        List<long[]> costs = new ArrayList<>();
        for (Link l : path) {
            costs.add(new long[] {l.minTransitNanos(wireBytes) + l.from().queueingBudgetNanos()});
        }
        costs.add(new long[] {to.queueingBudgetNanos()});
        long[] budget = new long[costs.size()];
        long assigned = 0;
        for (int i = 0; i < budget.length; i++) {
            budget[i] = total == 0 ? bound / budget.length : (long) ((double) costs.get(i)[0] * bound / total);
            assigned += budget[i];
        }
        budget[budget.length - 1] += bound - assigned; // rounding goes to the last hop
        long[] rest = minRestDelays(path, wireBytes);
        List<Hop> hops = new ArrayList<>();
        long downstream = bound;
        for (int i = 0; i < budget.length; i++) {
            downstream -= budget[i];
            String router = i < path.size() ? path.get(i).from().id() : to.id();
            String next = i < path.size() ? path.get(i).to().id() : null;
            hops.add(new Hop(router, next, budget[i], downstream, rest[i]));
        }
        return hops;
    }

    /**
     * Per hop of a path (one per link, then the subscriber router's delivery), the least delay from
     * the hop's departure to the subscriber's router: its own link's and every later link's
     * propagation plus the transmission of one frame at their bandwidth. Queueing is left out, so an
     * event that would leave later than its deadline less this can never be on time.
     */
    static long[] minRestDelays(List<Link> path, long wireBytes) {
        long[] rest = new long[path.size() + 1];
        for (int i = path.size() - 1; i >= 0; i--) {
            rest[i] = rest[i + 1] + path.get(i).minTransitNanos(wireBytes);
        }
        return rest;
    }

    /** Why fewer than k paths were found: a link short of bandwidth if one is to blame, else the graph. */
    private Rejected explainShortage(SubscriptionRequest r, RouterNode from, RouterNode to, int k,
                                     ToLongFunction<Link> cost) {
        ServiceClass c = r.qos().serviceClass();
        long id = r.subscriptionId();
        List<List<Link>> unconstrained = pathFinder.paths(from, to, k, cost, l -> true);
        if (unconstrained.size() < k) {
            return new Rejected(id, String.format("only %d node-disjoint path(s) exist from %s to %s, %d asked",
                    unconstrained.size(), from.id(), to.id(), k));
        }
        for (List<Link> p : unconstrained) {
            for (Link l : p) {
                SharedFlow f = flowOn(l, r);
                if (f != null && f.distinctIntervalsWith(r) > SharedFlow.MAX_INTERVALS) {
                    return new Rejected(id, tooManyRates("link " + l.name(), r, f), true);
                }
                String why = shortage(l, c, r);
                if (why != null) {
                    return new Rejected(id, why);
                }
            }
        }
        return new Rejected(id, String.format("no %d node-disjoint paths from %s to %s have the capacity, though each"
                + " link alone does", k, from.id(), to.id()));
    }

    /** What the link, or the router it leads to, lacks for the stream; null if both have room. */
    private String shortage(Link l, ServiceClass c, SubscriptionRequest r) {
        SharedFlow f = flowOn(l, r);
        if (f != null && f.distinctIntervalsWith(r) > SharedFlow.MAX_INTERVALS) {
            return tooManyRates("link " + l.name(), r, f);
        }
        ServiceClass in = f == null ? c : shortClass(l, f, r);
        long need = f == null ? r.bytesPerSecond() : in == null ? 0 : f.heldWith(r, in) - f.held(in);
        if (in != null && linkFree(l, in) < need) {
            return String.format("link %s class %s: needs %s, %s free", l.name(), in, kbits(need), kbits(linkFree(l, in)));
        }
        return routerShortage(l.to(), r);
    }

    private String routerShortage(RouterNode n, SubscriptionRequest r) {
        long need = routerIncrement(n, r);
        return routerFree(n) < need ? String.format("router %s: needs %d events/s, %d free", n.id(), need, routerFree(n)) : null;
    }

    private static String kbits(long bytesPerSecond) {
        return String.format("%.1f kbit/s", bytesPerSecond * 8 / 1000.0);
    }

    private static String describe(List<Link> path, RouterNode from) {
        StringBuilder sb = new StringBuilder(from.id());
        for (Link l : path) {
            sb.append("->").append(l.to().id());
        }
        return sb.toString();
    }
}
