package org.gridstat.broker.admission;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import org.gridstat.broker.admission.AdmissionResult.Admitted;
import org.gridstat.broker.admission.AdmissionResult.Hop;
import org.gridstat.broker.admission.AdmissionResult.Rejected;
import org.gridstat.broker.paths.DisjointPaths;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.RouterNode;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.ServiceClass;

/**
 * Admits a subscription only if k node-disjoint paths exist on which every link has the class
 * bandwidth it needs, every router the forwarding capacity, and every path meets the latency bound
 * with its propagation delays and per-hop queueing budgets. Reservations are multicast-aware: a
 * link reserves, per class and variable, the largest rate any subscription routes over it, not the
 * sum. The end-to-end bound is split into hop budgets in proportion to each hop's delay plus
 * queueing budget. Each hop also gets the least delay of the path after it (propagation plus
 * transmission of one frame on every later link), so that a router drops an event as a deadline
 * miss only once it cannot be delivered in time. Single-threaded; the broker serialises admissions.
 */
public final class AdmissionController {
    private final Topology topology;
    /** Per link and class, per variable: the rates routed over it (a multiset; the reservation is its maximum). */
    private final Map<Long, TreeMap<Long, Integer>>[][] linkNeeds;
    private final DisjointPaths pathFinder;
    private final long[][] linkReserved;
    /** Per router and variable: the event rates it forwards; its load is the sum of the maxima. */
    private final Map<Integer, Map<Long, TreeMap<Long, Integer>>> routerNeeds = new HashMap<>();
    private final long[] routerReserved;
    private final Map<Long, Admission> admitted = new HashMap<>();

    private record Admission(SubscriptionRequest request, List<List<Link>> paths, RouterNode subscriber) {
    }

    @SuppressWarnings("unchecked")
    public AdmissionController(Topology topology) {
        this.topology = topology;
        this.pathFinder = new DisjointPaths(topology);
        this.linkNeeds = new Map[topology.links().size()][ServiceClass.values().length];
        this.linkReserved = new long[topology.links().size()][ServiceClass.values().length];
        this.routerReserved = new long[topology.routers().size()];
    }

    public AdmissionResult admit(SubscriptionRequest r) {
        if (admitted.containsKey(r.subscriptionId())) {
            return new Rejected(r.subscriptionId(), "subscription " + r.subscriptionId() + " is already admitted");
        }
        RouterNode from = topology.router(r.publisherRouter());
        RouterNode to = topology.router(r.subscriberRouter());
        if (from == null || to == null) {
            return new Rejected(r.subscriptionId(), "no router '" + (from == null ? r.publisherRouter() : r.subscriberRouter())
                    + "' in the topology");
        }
        ServiceClass c = r.qos().serviceClass();
        long bytes = r.bytesPerSecond();
        long events = r.eventsPerSecond();
        int k = r.qos().paths();
        List<List<Link>> paths;
        if (from == to) {
            if (k > 1) {
                return new Rejected(r.subscriptionId(), k + " disjoint paths asked, but publisher and subscriber share router " + from.id());
            }
            paths = List.of(List.of());
        } else {
            ToLongFunction<Link> cost = l -> l.delayNanos() + l.from().queueingBudgetNanos();
            paths = pathFinder.paths(from, to, k, cost,
                    l -> fits(l, c, r, bytes, events));
            if (paths.size() < k) {
                return new Rejected(r.subscriptionId(), explainShortage(r, from, to, k, cost));
            }
        }
        long bound = r.qos().latencyBoundNanos();
        for (int i = 0; i < paths.size(); i++) {
            long need = pathCost(paths.get(i), to);
            if (need > bound) {
                return new Rejected(r.subscriptionId(), String.format(
                        "path %d (%s) needs %.1f ms of delay and queueing budgets, more than the %.1f ms bound",
                        i + 1, describe(paths.get(i), from), need / 1e6, bound / 1e6));
            }
        }
        String routerShort = routerShortage(from, r);
        if (routerShort != null) {
            return new Rejected(r.subscriptionId(), routerShort);
        }
        reserve(r, paths, from, +1);
        admitted.put(r.subscriptionId(), new Admission(r, paths, to));
        List<List<Hop>> hops = new ArrayList<>();
        for (List<Link> p : paths) {
            hops.add(budgets(p, to, bound, r.wireBytes()));
        }
        return new Admitted(r.subscriptionId(), hops);
    }

    /**
     * Admits a subscription over one given path (a parent broker's border links), checking each
     * link's class bandwidth and each router's capacity, and reserves it; no bound is split.
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
        reserve(r, List.of(path), from, +1);
        admitted.put(r.subscriptionId(), new Admission(r, List.of(path), path.isEmpty() ? from : path.get(path.size() - 1).to()));
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
        for (List<Hop> hops : held.paths()) {
            List<Link> path = new ArrayList<>();
            for (Hop h : hops) {
                if (h.next() != null) {
                    Link l = topology.link(h.router(), h.next());
                    if (l == null) {
                        throw new IllegalArgumentException("subscription " + r.subscriptionId() + ": no link "
                                + h.router() + "->" + h.next() + " in the topology");
                    }
                    path.add(l);
                }
            }
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
        reserve(r, paths, from, +1);
        this.admitted.put(r.subscriptionId(), new Admission(r, paths, to));
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
        reserve(a.request(), a.paths(), topology.router(a.request().publisherRouter()), -1);
        return true;
    }

    /** Bytes per second reserved on a link for a class. */
    public long reserved(Link l, ServiceClass c) {
        return linkReserved[l.index()][c.ordinal()];
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

    /** What admitting adds on a link: nothing if the variable already crosses it at this rate or higher. */
    /**
     * Whether the link and the router it leads to can carry the stream. Most links have room for
     * the whole stream, so the multicast lookup runs only where they have less.
     */
    private boolean fits(Link l, ServiceClass c, SubscriptionRequest r, long bytes, long events) {
        long free = linkFree(l, c);
        if (free < bytes && free < linkIncrement(l, c, r)) {
            return false;
        }
        long routerFree = routerFree(l.to());
        return routerFree >= events || routerFree >= routerIncrement(l.to(), r);
    }

    private long linkIncrement(Link l, ServiceClass c, SubscriptionRequest r) {
        Map<Long, TreeMap<Long, Integer>> byVariable = linkNeeds[l.index()][c.ordinal()];
        TreeMap<Long, Integer> rates = byVariable == null ? null : byVariable.get(r.variable().value());
        long current = rates == null || rates.isEmpty() ? 0 : rates.lastKey();
        return Math.max(0, r.bytesPerSecond() - current);
    }

    private long routerFree(RouterNode n) {
        return n.forwardingCapacity() - routerReserved[n.index()];
    }

    private long routerIncrement(RouterNode n, SubscriptionRequest r) {
        TreeMap<Long, Integer> rates = routerNeeds.getOrDefault(n.index(), Map.of()).get(r.variable().value());
        long current = rates == null || rates.isEmpty() ? 0 : rates.lastKey();
        return Math.max(0, r.eventsPerSecond() - current);
    }

    private void reserve(SubscriptionRequest r, List<List<Link>> paths, RouterNode from, int sign) {
        ServiceClass c = r.qos().serviceClass();
        java.util.Set<Integer> routers = new java.util.LinkedHashSet<>();
        routers.add(from.index());
        for (List<Link> p : paths) {
            for (Link l : p) {
                Map<Long, TreeMap<Long, Integer>> byVariable = linkNeeds[l.index()][c.ordinal()];
                if (byVariable == null) {
                    byVariable = linkNeeds[l.index()][c.ordinal()] = new HashMap<>();
                }
                TreeMap<Long, Integer> rates = byVariable.computeIfAbsent(r.variable().value(), x -> new TreeMap<>());
                long before = rates.isEmpty() ? 0 : rates.lastKey();
                count(rates, r.bytesPerSecond(), sign);
                long after = rates.isEmpty() ? 0 : rates.lastKey();
                linkReserved[l.index()][c.ordinal()] += after - before;
                routers.add(l.to().index());
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

    private static void count(TreeMap<Long, Integer> multiset, long value, int sign) {
        int n = multiset.getOrDefault(value, 0) + sign;
        if (n <= 0) {
            multiset.remove(value);
        } else {
            multiset.put(value, n);
        }
    }

    /** Delay plus queueing budget of every hop, the subscriber's router's local delivery included. */
    private static long pathCost(List<Link> path, RouterNode to) {
        long sum = to.queueingBudgetNanos();
        for (Link l : path) {
            sum += l.delayNanos() + l.from().queueingBudgetNanos();
        }
        return sum;
    }

    private static List<Hop> budgets(List<Link> path, RouterNode to, long bound, int wireBytes) {
        long total = pathCost(path, to);
        List<long[]> costs = new ArrayList<>();
        for (Link l : path) {
            costs.add(new long[] {l.delayNanos() + l.from().queueingBudgetNanos()});
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
     * Per hop of a path (one per link, then the subscriber router's delivery), the least delay of
     * the links after the hop's own: their propagation plus the transmission of one frame at their
     * bandwidth. Queueing is left out, so an event later than this can never be on time.
     */
    static long[] minRestDelays(List<Link> path, long wireBytes) {
        long[] rest = new long[path.size() + 1];
        for (int i = path.size() - 2; i >= 0; i--) {
            rest[i] = rest[i + 1] + path.get(i + 1).minTransitNanos(wireBytes);
        }
        return rest;
    }

    /** Why fewer than k paths were found: a link short of bandwidth if one is to blame, else the graph. */
    private String explainShortage(SubscriptionRequest r, RouterNode from, RouterNode to, int k, ToLongFunction<Link> cost) {
        ServiceClass c = r.qos().serviceClass();
        List<List<Link>> unconstrained = pathFinder.paths(from, to, k, cost, l -> true);
        if (unconstrained.size() < k) {
            return String.format("only %d node-disjoint path(s) exist from %s to %s, %d asked", unconstrained.size(),
                    from.id(), to.id(), k);
        }
        for (List<Link> p : unconstrained) {
            for (Link l : p) {
                String why = shortage(l, c, r);
                if (why != null) {
                    return why;
                }
            }
        }
        return String.format("no %d node-disjoint paths from %s to %s have the capacity, though each link alone does",
                k, from.id(), to.id());
    }

    /** What the link, or the router it leads to, lacks for the stream; null if both have room. */
    private String shortage(Link l, ServiceClass c, SubscriptionRequest r) {
        long need = linkIncrement(l, c, r);
        if (linkFree(l, c) < need) {
            return String.format("link %s class %s: needs %s, %s free", l.name(), c, kbits(need), kbits(linkFree(l, c)));
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
