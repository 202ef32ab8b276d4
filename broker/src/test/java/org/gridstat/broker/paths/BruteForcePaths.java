package org.gridstat.broker.paths;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.HashSet;
import java.util.Set;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.RouterNode;
import org.gridstat.broker.topology.Topology;

/** Every simple path of a small graph, and every set of node-disjoint ones: what the path searches are checked against. */
final class BruteForcePaths {
    /** A simple path: its links, the routers between its ends (bit i: router index i), its cost. */
    record Path(List<Link> links, long inner, long cost) {
    }

    private BruteForcePaths() {
    }

    /** A random graph of 4-8 routers with up to twice as many one-way links, costs 1-20 ns. */
    static Topology randomGraph(Random random) {
        return randomGraph(random, 4 + random.nextInt(5), 2);
    }

    /** A random graph of n routers with up to {@code linksPerRouter} times as many one-way links, costs 1-20 ns. */
    static Topology randomGraph(Random random, int n, int linksPerRouter) {
        Topology.Builder b = Topology.builder();
        for (int i = 0; i < n; i++) {
            b.router("r" + i, 1000, 0, "");
        }
        Set<String> made = new HashSet<>();
        for (int e = 0; e < n * linksPerRouter; e++) {
            int x = random.nextInt(n);
            int y = random.nextInt(n);
            if (x != y && made.add(x + "-" + y)) {
                b.link("r" + x, "r" + y, 1000, 1 + random.nextInt(20), Topology.Builder.defaultShares());
            }
        }
        return b.build();
    }

    /**
     * A random graph with a trap planted between r0 and r1: r0 -> r2 -> r3 -> r1 is short but takes
     * both r2 and r3, which r0 -> r2 -> r1 and r0 -> r3 -> r1 (longer) each need one of; beside the
     * short one only r0 -> r4 -> r1 is left, costlier than either but cheaper than their sum less the
     * short one. So the least-cost pair is the short path and r0 -> r4 -> r1, whose costlier path a
     * bound can rule out while the two medium paths meet it. Noise links of cost 10-20 are added.
     */
    static Topology plantedTrap(Random random) {
        int n = 6 + random.nextInt(4);
        Topology.Builder b = Topology.builder();
        for (int i = 0; i < n; i++) {
            b.router("r" + i, 1000, 0, "");
        }
        long c1 = 1 + random.nextInt(2);
        long c2 = 1 + random.nextInt(2);
        long c3 = 1 + random.nextInt(2);
        long l1 = 6 + random.nextInt(3);
        long l2 = 6 + random.nextInt(3);
        long medium1 = c1 + l1;
        long medium2 = l2 + c3;
        long lowest = Math.max(medium1, medium2) + 1;
        long highest = medium1 + medium2 - (c1 + c2 + c3) - 1;
        long x = lowest + random.nextInt((int) (highest - lowest + 1));
        long x1 = x / 2;
        long[][] trap = {{0, 2, c1}, {2, 3, c2}, {3, 1, c3}, {2, 1, l1}, {0, 3, l2}, {0, 4, x1}, {4, 1, x - x1}};
        Set<String> made = new HashSet<>();
        for (long[] l : trap) {
            made.add(l[0] + "-" + l[1]);
            b.link("r" + l[0], "r" + l[1], 1000, l[2], Topology.Builder.defaultShares());
        }
        for (int e = 0; e < n * 2; e++) {
            int from = random.nextInt(n);
            int to = random.nextInt(n);
            if (from != to && made.add(from + "-" + to)) {
                b.link("r" + from, "r" + to, 1000, 10 + random.nextInt(11), Topology.Builder.defaultShares());
            }
        }
        return b.build();
    }

    static List<Path> simplePaths(Topology t, RouterNode from, RouterNode to) {
        List<Path> out = new ArrayList<>();
        walk(t, from, to, new ArrayList<>(), 1L << from.index(), 0, out);
        return out;
    }

    private static void walk(Topology t, RouterNode at, RouterNode to, List<Link> path, long visited, long cost, List<Path> out) {
        for (Link l : t.outgoing(at)) {
            RouterNode next = l.to();
            if ((visited & (1L << next.index())) != 0) {
                continue;
            }
            path.add(l);
            if (next == to) {
                long inner = 0;
                for (int i = 0; i < path.size() - 1; i++) {
                    inner |= 1L << path.get(i).to().index();
                }
                out.add(new Path(List.copyOf(path), inner, cost + l.delayNanos()));
            } else {
                walk(t, next, to, path, visited | (1L << next.index()), cost + l.delayNanos(), out);
            }
            path.remove(path.size() - 1);
        }
    }

    /** The least total cost of {@code count} node-disjoint paths among {@code paths}; -1 if there are no such paths. */
    static long leastCost(List<Path> paths, int count) {
        return least(paths, count, 0, 0L, 0L);
    }

    private static long least(List<Path> paths, int left, int start, long used, long cost) {
        if (left == 0) {
            return cost;
        }
        long best = -1;
        for (int i = start; i < paths.size(); i++) {
            Path p = paths.get(i);
            if ((p.inner() & used) == 0) {
                long c = least(paths, left - 1, i + 1, used | p.inner(), cost + p.cost());
                if (c >= 0 && (best < 0 || c < best)) {
                    best = c;
                }
            }
        }
        return best;
    }

    /** The least cost of the costliest path in a set of {@code count} node-disjoint ones; -1 if there is no such set. */
    static long leastMax(List<Path> paths, int count) {
        return leastMax(paths, count, 0, 0L, 0L);
    }

    private static long leastMax(List<Path> paths, int left, int start, long used, long max) {
        if (left == 0) {
            return max;
        }
        long best = -1;
        for (int i = start; i < paths.size(); i++) {
            Path p = paths.get(i);
            if ((p.inner() & used) == 0) {
                long c = leastMax(paths, left - 1, i + 1, used | p.inner(), Math.max(max, p.cost()));
                if (c >= 0 && (best < 0 || c < best)) {
                    best = c;
                }
            }
        }
        return best;
    }

    /** The most node-disjoint paths among {@code paths}, up to {@code k}. */
    static int most(List<Path> paths, int k) {
        int m = 0;
        while (m < k && leastCost(paths, m + 1) >= 0) {
            m++;
        }
        return m;
    }
}
