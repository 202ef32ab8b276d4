package org.gridstat.broker.paths;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.RouterNode;
import org.gridstat.broker.topology.Topology;

/**
 * Finds k node-disjoint paths between two routers each of which costs at most a bound: what a
 * latency bound asks of every path, which the least-cost set of {@link DisjointPaths} (least
 * total) may break with one short path and one long one although k medium paths exist. The
 * problem is NP-hard in general, so the search works in steps, cheapest first:
 *
 * <ol>
 *   <li>Links that cannot lie on any path within the bound (least cost to reach their start,
 *       plus theirs, plus least cost from their end, above the bound) are dropped. If fewer than k
 *       disjoint paths remain, none exist.</li>
 *   <li>The least-cost k disjoint paths over what remains: if each meets the bound, done.</li>
 *   <li>An exact depth-first search over the paths, one after the other, pruned by the least cost
 *       from each router to the destination (computed again, avoiding the routers taken, before each
 *       path; the last path is simply the shortest that is left), and limited to a budget of steps
 *       (link extensions and Dijkstra relaxations). Exhausted: none exist.</li>
 *   <li>If the budget runs out, a heuristic: shortest path first, its routers removed, and so on.
 *       It may miss paths that exist (the documented gap); the result then says the search gave
 *       up rather than that none exist.</li>
 * </ol>
 *
 * Build one per topology; not thread-safe.
 */
public final class BoundedDisjointPaths {
    /** Steps the exact search may take: a few milliseconds on a 1,000-router topology. */
    public static final long DEFAULT_STEP_BUDGET = 250_000;

    /** What the search established. */
    public enum Outcome {
        /** k paths within the bound, in {@link Result#paths()}. */
        FOUND,
        /** Proved: no k node-disjoint paths within the bound exist over the eligible links. */
        NONE,
        /** The exact search ran out of steps and the heuristic found nothing either. */
        GAVE_UP
    }

    public record Result(Outcome outcome, List<List<Link>> paths, long steps) {
    }

    private static final long UNREACHABLE = Long.MAX_VALUE;

    private final Topology topology;
    private final DisjointPaths leastCost;
    private final long stepBudget;
    private final Link[] links;
    private final int[][] outgoing;
    private final int[][] incoming;

    // Per query.
    private long[] cost;
    private boolean[] usable;
    private boolean[] blocked;
    private boolean[] onPath;
    private int from;
    private int to;
    private int k;
    private long bound;
    private long steps;
    private long budgetEnd;
    private final List<int[]> chosen = new ArrayList<>();
    /** Whether step 2 runs; off only to test the exact search alone. */
    private final boolean leastCostFirst;
    private final Heap heap;

    public BoundedDisjointPaths(Topology topology) {
        this(topology, DEFAULT_STEP_BUDGET);
    }

    public BoundedDisjointPaths(Topology topology, long stepBudget) {
        this(topology, stepBudget, true);
    }

    BoundedDisjointPaths(Topology topology, long stepBudget, boolean leastCostFirst) {
        this.leastCostFirst = leastCostFirst;
        if (stepBudget < 1) {
            throw new IllegalArgumentException("step budget must be positive");
        }
        this.topology = topology;
        this.leastCost = new DisjointPaths(topology);
        this.stepBudget = stepBudget;
        int n = topology.routers().size();
        this.links = topology.links().toArray(new Link[0]);
        int[] outCount = new int[n];
        int[] inCount = new int[n];
        for (Link l : links) {
            outCount[l.from().index()]++;
            inCount[l.to().index()]++;
        }
        this.outgoing = new int[n][];
        this.incoming = new int[n][];
        for (int i = 0; i < n; i++) {
            outgoing[i] = new int[outCount[i]];
            incoming[i] = new int[inCount[i]];
        }
        Arrays.fill(outCount, 0);
        Arrays.fill(inCount, 0);
        for (Link l : links) {
            outgoing[l.from().index()][outCount[l.from().index()]++] = l.index();
            incoming[l.to().index()][inCount[l.to().index()]++] = l.index();
        }
        this.heap = new Heap(n);
    }

    /**
     * @param bound    the most one path may cost (sum of its links' costs)
     * @param linkCost a link's cost (non-negative)
     * @param eligible which links may be used
     */
    public Result search(RouterNode source, RouterNode destination, int k, long bound, ToLongFunction<Link> linkCost,
                         Predicate<Link> eligible) {
        if (source == destination) {
            throw new IllegalArgumentException("source and destination are the same router " + source.id());
        }
        if (k < 1) {
            throw new IllegalArgumentException("k must be positive, got " + k);
        }
        int n = topology.routers().size();
        this.from = source.index();
        this.to = destination.index();
        this.k = k;
        this.bound = bound;
        this.steps = 0;
        this.budgetEnd = Long.MAX_VALUE;
        this.cost = new long[links.length];
        this.usable = new boolean[links.length];
        this.blocked = new boolean[n];
        this.onPath = new boolean[n];
        chosen.clear();
        if (bound < 0) {
            return new Result(Outcome.NONE, List.of(), 0);
        }
        for (Link l : links) {
            int i = l.index();
            if (l.to().index() == from || l.from().index() == to || !eligible.test(l)) {
                continue;
            }
            cost[i] = linkCost.applyAsLong(l);
            if (cost[i] < 0) {
                throw new IllegalArgumentException("link " + l.name() + " has negative cost " + cost[i]);
            }
            usable[i] = true;
        }
        // 1. Only links on some path within the bound can serve.
        long[] fromSource = distances(from, true, -1);
        long[] toDestination = distances(to, false, -1);
        for (Link l : links) {
            int i = l.index();
            long a = fromSource[l.from().index()];
            long b = toDestination[l.to().index()];
            if (usable[i] && (a == UNREACHABLE || b == UNREACHABLE || a > bound - b || cost[i] > bound - a - b)) {
                usable[i] = false;
            }
        }
        // 2. The least-cost set over them.
        if (leastCostFirst) {
            List<List<Link>> cheapest = leastCost.paths(source, destination, k, l -> cost[l.index()],
                    l -> usable[l.index()]);
            if (cheapest.size() < k) {
                return new Result(Outcome.NONE, List.of(), steps);
            }
            if (cheapest.stream().allMatch(p -> total(p) <= bound)) {
                return new Result(Outcome.FOUND, cheapest, steps);
            }
        }
        // 3. Exact search within the budget.
        boolean[] pruned = usable.clone();
        budgetEnd = steps + stepBudget;
        try {
            if (solve(0, -1)) {
                return new Result(Outcome.FOUND, chosenPaths(), steps);
            }
            return new Result(Outcome.NONE, List.of(), steps);
        } catch (OutOfSteps e) {
            // 4. The heuristic, from a clean slate.
            budgetEnd = Long.MAX_VALUE;
            usable = pruned;
            chosen.clear();
            Arrays.fill(blocked, false);
            Arrays.fill(onPath, false);
            for (int p = 0; p < k; p++) {
                int[] path = shortestLeft();
                if (path == null) {
                    return new Result(Outcome.GAVE_UP, List.of(), steps);
                }
                take(path);
            }
            return new Result(Outcome.FOUND, chosenPaths(), steps);
        }
    }

    private static final class OutOfSteps extends RuntimeException {
        OutOfSteps() {
            super(null, null, false, false);
        }
    }

    /** Counts a step; past the budget (while the exact search runs), gives up. */
    private void step() {
        if (++steps > budgetEnd) {
            throw new OutOfSteps();
        }
    }

    /** Chooses paths {@code depth..k-1}; each path's first link has a higher index than the one before (no permutations). */
    private boolean solve(int depth, int lastFirstLink) {
        if (depth == k - 1) {
            int[] path = shortestLeft();
            if (path == null) {
                return false;
            }
            take(path);
            return true;
        }
        long[] rest = distances(to, false, -1);
        if (rest[from] > bound) {
            return false;
        }
        return extend(from, 0, new int[topology.routers().size()], 0, depth, lastFirstLink, rest);
    }

    private boolean extend(int u, long spent, int[] path, int length, int depth, int lastFirstLink, long[] rest) {
        for (int e : outgoing[u]) {
            if (!usable[e] || (u == from && e <= lastFirstLink)) {
                continue;
            }
            int v = links[e].to().index();
            if (blocked[v] || onPath[v] || rest[v] == UNREACHABLE || spent + cost[e] > bound - rest[v]) {
                continue;
            }
            step();
            path[length] = e;
            if (v == to) {
                int[] found = Arrays.copyOf(path, length + 1);
                take(found);
                if (solve(depth + 1, found[0])) {
                    return true;
                }
                untake();
            } else {
                onPath[v] = true;
                boolean done = extend(v, spent + cost[e], path, length + 1, depth, lastFirstLink, rest);
                onPath[v] = false;
                if (done) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The shortest path within the bound avoiding the routers and links taken, or null. */
    private int[] shortestLeft() {
        int[] next = new int[topology.routers().size()];
        long[] d = distances(to, false, from, next);
        if (d[from] > bound) {
            return null;
        }
        List<Integer> path = new ArrayList<>();
        for (int u = from; u != to; u = links[next[u]].to().index()) {
            path.add(next[u]);
        }
        return path.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Blocks a path's routers and its links (a direct link has no router between to block). */
    private void take(int[] path) {
        chosen.add(path);
        for (int e : path) {
            usable[e] = false;
            int v = links[e].to().index();
            if (v != to) {
                blocked[v] = true;
            }
        }
    }

    private void untake() {
        int[] path = chosen.remove(chosen.size() - 1);
        for (int e : path) {
            usable[e] = true;
            int v = links[e].to().index();
            if (v != to) {
                blocked[v] = false;
            }
        }
    }

    private List<List<Link>> chosenPaths() {
        List<List<Link>> out = new ArrayList<>();
        for (int[] path : chosen) {
            List<Link> p = new ArrayList<>(path.length);
            for (int e : path) {
                p.add(links[e]);
            }
            out.add(p);
        }
        out.sort(Comparator.comparingLong(this::total));
        return out;
    }

    private long total(List<Link> path) {
        long sum = 0;
        for (Link l : path) {
            sum += cost[l.index()];
        }
        return sum;
    }

    private long[] distances(int origin, boolean forward, int stopAt) {
        return distances(origin, forward, stopAt, null);
    }

    /**
     * Least costs over usable links and routers not blocked: from {@code origin} (forward) or to it
     * (backward, recording in {@code next} each router's first link towards it). Stops once
     * {@code stopAt} is settled; every relaxation is a step.
     */
    private long[] distances(int origin, boolean forward, int stopAt, int[] next) {
        long[] d = new long[topology.routers().size()];
        Arrays.fill(d, UNREACHABLE);
        d[origin] = 0;
        heap.clear();
        heap.push(0, origin);
        while (!heap.isEmpty()) {
            long du = heap.topKey();
            int u = heap.pop();
            if (du > d[u]) {
                continue;
            }
            if (u == stopAt) {
                break;
            }
            for (int e : forward ? outgoing[u] : incoming[u]) {
                if (!usable[e]) {
                    continue;
                }
                int v = forward ? links[e].to().index() : links[e].from().index();
                if (blocked[v]) {
                    continue;
                }
                step();
                long dv = du + cost[e];
                if (dv < d[v]) {
                    d[v] = dv;
                    if (next != null) {
                        next[v] = e;
                    }
                    heap.push(dv, v);
                }
            }
        }
        return d;
    }

    /** A binary heap of (cost, router) with lazy deletion. */
    private static final class Heap {
        private long[] keys;
        private int[] nodes;
        private int size;

        Heap(int capacity) {
            keys = new long[Math.max(16, capacity)];
            nodes = new int[keys.length];
        }

        void clear() {
            size = 0;
        }

        boolean isEmpty() {
            return size == 0;
        }

        long topKey() {
            return keys[0];
        }

        void push(long key, int node) {
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, size * 2);
                nodes = Arrays.copyOf(nodes, size * 2);
            }
            int at = size++;
            while (at > 0) {
                int parent = (at - 1) >>> 1;
                if (keys[parent] <= key) {
                    break;
                }
                keys[at] = keys[parent];
                nodes[at] = nodes[parent];
                at = parent;
            }
            keys[at] = key;
            nodes[at] = node;
        }

        int pop() {
            int top = nodes[0];
            long key = keys[--size];
            int node = nodes[size];
            int at = 0;
            while (true) {
                int child = 2 * at + 1;
                if (child >= size) {
                    break;
                }
                if (child + 1 < size && keys[child + 1] < keys[child]) {
                    child++;
                }
                if (keys[child] >= key) {
                    break;
                }
                keys[at] = keys[child];
                nodes[at] = nodes[child];
                at = child;
            }
            keys[at] = key;
            nodes[at] = node;
            return top;
        }
    }
}
