package org.gridstat.broker.paths;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.RouterNode;
import org.gridstat.broker.topology.Topology;

/**
 * Finds k node-disjoint paths between two routers whose total cost is least, over the links a
 * filter admits. Build one per topology and query it many times; not thread-safe. Each router but the ends is split into an entry and an exit joined by an edge of
 * capacity one, so paths cannot share it; then k units of flow are pushed by successive shortest
 * paths (Dijkstra on costs reduced by node potentials), which is Suurballe's and Bhandari's
 * algorithm generalised to k. A greedy "shortest, remove, repeat" can miss disjoint pairs that
 * exist; this cannot.
 */
public final class DisjointPaths {
    private final Topology topology;
    private final Graph template;
    /** The edge of each link in the graph. */
    private final int[] linkEdge;

    /** Builds the node-split graph of a topology once, for any number of queries. */
    public DisjointPaths(Topology topology) {
        this.topology = topology;
        this.template = new Graph(2 * topology.routers().size());
        for (RouterNode r : topology.routers()) {
            template.add(in(r), out(r), 1, 0, null);
        }
        this.linkEdge = new int[topology.links().size()];
        for (Link l : topology.links()) {
            linkEdge[l.index()] = template.add(out(l.from()), in(l.to()), 1, 0, l);
        }
        template.freeze();
    }

    /** One query on a graph built for it; see {@link #paths}. */
    public static List<List<Link>> find(Topology t, RouterNode from, RouterNode to, int k,
                                        ToLongFunction<Link> cost, Predicate<Link> eligible) {
        return new DisjointPaths(t).paths(from, to, k, cost, eligible);
    }

    /**
     * @param cost     a link's cost (non-negative), e.g. delay plus the sender's queueing budget
     * @param eligible which links may be used
     * @return up to {@code k} paths as lists of links, fewest-cost first; fewer if no more exist
     */
    public List<List<Link>> paths(RouterNode from, RouterNode to, int k, ToLongFunction<Link> cost,
                                  Predicate<Link> eligible) {
        if (from == to) {
            throw new IllegalArgumentException("source and destination are the same router " + from.id());
        }
        Graph g = template;
        g.reset();
        // The ends are not split: paths leave from's exit and reach to's entry.
        g.disable(splitEdge(from));
        g.disable(splitEdge(to));
        for (Link l : topology.links()) {
            int e = linkEdge[l.index()];
            if (l.to() == from || l.from() == to || !eligible.test(l)) {
                g.disable(e);
                continue;
            }
            long c = cost.applyAsLong(l);
            if (c < 0) {
                throw new IllegalArgumentException("link " + l.name() + " has negative cost " + c);
            }
            g.setCost(e, c);
        }
        int source = out(from);
        int sink = in(to);
        int found = 0;
        long[] potential = new long[g.nodes];
        while (found < k && g.augment(source, sink, potential)) {
            found++;
        }
        List<List<Link>> paths = new ArrayList<>();
        for (int p = 0; p < found; p++) {
            paths.add(g.takePath(source, sink));
        }
        paths.sort((a, b) -> Long.compare(total(a, cost), total(b, cost)));
        return paths;
    }

    private static int splitEdge(RouterNode r) {
        return 2 * r.index(); // the split edges were added first, one per router, in index order
    }

    public static long total(List<Link> path, ToLongFunction<Link> cost) {
        long sum = 0;
        for (Link l : path) {
            sum += cost.applyAsLong(l);
        }
        return sum;
    }

    private static int in(RouterNode r) {
        return 2 * r.index();
    }

    private static int out(RouterNode r) {
        return 2 * r.index() + 1;
    }

    /** A residual graph with unit capacities. */
    private static final class Graph {
        final int nodes;
        final List<int[]> adjacency = new ArrayList<>();
        int[] to = new int[16];
        int[] cap = new int[16];
        long[] cost = new long[16];
        Link[] link = new Link[16];
        int[] initialCap;
        int[][] adjacencyArrays;
        int edges;

        Graph(int nodes) {
            this.nodes = nodes;
            for (int i = 0; i < nodes; i++) {
                adjacency.add(new int[0]);
            }
        }

        /** Adds an edge and its reverse; returns the edge's index (even; its reverse is index + 1). */
        int add(int u, int v, int capacity, long c, Link l) {
            int e = push(v, capacity, c, l);
            int r = push(u, 0, -c, null);
            adjacency.set(u, append(adjacency.get(u), e));
            adjacency.set(v, append(adjacency.get(v), r));
            return e;
        }

        void freeze() {
            initialCap = Arrays.copyOf(cap, edges);
            adjacencyArrays = adjacency.toArray(new int[0][]);
        }

        void reset() {
            System.arraycopy(initialCap, 0, cap, 0, edges);
        }

        void disable(int e) {
            cap[e] = 0;
        }

        void setCost(int e, long c) {
            cost[e] = c;
            cost[e ^ 1] = -c;
        }

        private int push(int v, int capacity, long c, Link l) {
            if (edges == to.length) {
                to = Arrays.copyOf(to, edges * 2);
                cap = Arrays.copyOf(cap, edges * 2);
                cost = Arrays.copyOf(cost, edges * 2);
                link = Arrays.copyOf(link, edges * 2);
            }
            to[edges] = v;
            cap[edges] = capacity;
            cost[edges] = c;
            link[edges] = l;
            return edges++;
        }

        private static int[] append(int[] a, int x) {
            int[] b = Arrays.copyOf(a, a.length + 1);
            b[a.length] = x;
            return b;
        }

        // Dijkstra's scratch space, reused across queries.
        private long[] dist;
        private int[] via;
        private long[] heapKey;
        private int[] heapNode;
        private int heapSize;

        /**
         * One unit along the cheapest residual path; false if the sink is unreachable. Dijkstra
         * stops once the sink is settled; raising every potential by min(dist, dist to the sink)
         * keeps the reduced costs non-negative for the next round.
         */
        boolean augment(int s, int t, long[] potential) {
            if (dist == null) {
                dist = new long[nodes];
                via = new int[nodes];
                heapKey = new long[edges + nodes];
                heapNode = new int[edges + nodes];
            }
            Arrays.fill(dist, Long.MAX_VALUE);
            Arrays.fill(via, -1);
            dist[s] = 0;
            heapSize = 0;
            heapPush(0, s);
            while (heapSize > 0) {
                long d = heapKey[0];
                int u = heapPop();
                if (d > dist[u]) {
                    continue;
                }
                if (u == t) {
                    break;
                }
                for (int e : adjacencyArrays[u]) {
                    if (cap[e] <= 0) {
                        continue;
                    }
                    int v = to[e];
                    long nd = d + cost[e] + potential[u] - potential[v];
                    if (nd < dist[v]) {
                        dist[v] = nd;
                        via[v] = e;
                        heapPush(nd, v);
                    }
                }
            }
            long reach = dist[t];
            if (reach == Long.MAX_VALUE) {
                return false;
            }
            for (int v = 0; v < nodes; v++) {
                potential[v] += Math.min(dist[v], reach);
            }
            for (int v = t; v != s; v = to[via[v] ^ 1]) {
                cap[via[v]]--;
                cap[via[v] ^ 1]++;
            }
            return true;
        }

        private void heapPush(long key, int node) {
            if (heapSize == heapKey.length) {
                heapKey = Arrays.copyOf(heapKey, heapSize * 2);
                heapNode = Arrays.copyOf(heapNode, heapSize * 2);
            }
            int at = heapSize++;
            while (at > 0) {
                int parent = (at - 1) >>> 1;
                if (heapKey[parent] <= key) {
                    break;
                }
                heapKey[at] = heapKey[parent];
                heapNode[at] = heapNode[parent];
                at = parent;
            }
            heapKey[at] = key;
            heapNode[at] = node;
        }

        private int heapPop() {
            int top = heapNode[0];
            long key = heapKey[--heapSize];
            int node = heapNode[heapSize];
            int at = 0;
            while (true) {
                int child = 2 * at + 1;
                if (child >= heapSize) {
                    break;
                }
                if (child + 1 < heapSize && heapKey[child + 1] < heapKey[child]) {
                    child++;
                }
                if (heapKey[child] >= key) {
                    break;
                }
                heapKey[at] = heapKey[child];
                heapNode[at] = heapNode[child];
                at = child;
            }
            heapKey[at] = key;
            heapNode[at] = node;
            return top;
        }

        /** Follows one unit of flow from s to t, consuming it, and returns its links. */
        List<Link> takePath(int s, int t) {
            List<Link> path = new ArrayList<>();
            int u = s;
            while (u != t) {
                int next = -1;
                for (int e : adjacencyArrays[u]) {
                    // A forward edge that carries flow: its reverse has residual capacity.
                    if ((e & 1) == 0 && cap[e ^ 1] > 0) {
                        next = e;
                        break;
                    }
                }
                if (next < 0) {
                    throw new IllegalStateException("flow decomposition lost its way at node " + u);
                }
                cap[next ^ 1]--;
                if (link[next] != null) {
                    path.add(link[next]);
                }
                u = to[next];
            }
            return path;
        }
    }
}
