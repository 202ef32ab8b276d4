package org.gridstat.broker.paths;

import static org.junit.jupiter.api.Assertions.*;

import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.RouterNode;
import org.gridstat.broker.topology.Topology;
import org.junit.jupiter.api.Test;

class DisjointPathsTest {
    private static final java.util.Map<org.gridstat.core.model.ServiceClass, Integer> SHARES =
            Topology.Builder.defaultShares();

    @Test
    void findsTheDisjointPairThatShortestPathFirstWouldBlock() {
        // The cheapest single path s-a-b-t uses both middle routers; the only disjoint pair is
        // s-a-d-t and s-c-b-t. Removing the first shortest path and searching again finds nothing.
        Topology t = Topology.builder().router("s", 1000).router("a", 1000).router("b", 1000).router("c", 1000)
                .router("d", 1000).router("t", 1000)
                .link("s", "a", 1000, 1, SHARES).link("a", "b", 1000, 1, SHARES).link("b", "t", 1000, 1, SHARES)
                .link("a", "d", 1000, 5, SHARES).link("d", "t", 1000, 5, SHARES)
                .link("s", "c", 1000, 5, SHARES).link("c", "b", 1000, 5, SHARES).build();
        List<List<Link>> paths = DisjointPaths.find(t, t.router("s"), t.router("t"), 2, Link::delayNanos, l -> true);
        assertEquals(2, paths.size());
        assertEquals(List.of("s->a", "a->d", "d->t"), paths.get(0).stream().map(Link::name).toList());
        assertEquals(List.of("s->c", "c->b", "b->t"), paths.get(1).stream().map(Link::name).toList());
        assertEquals(1, DisjointPaths.find(t, t.router("s"), t.router("t"), 1, Link::delayNanos, l -> true).size());
        assertEquals(3, DisjointPaths.total(
                DisjointPaths.find(t, t.router("s"), t.router("t"), 1, Link::delayNanos, l -> true).get(0), Link::delayNanos));
    }

    @Test
    void onRandomGraphsTheMostDisjointPathsAreFoundAtTheLeastTotalCostThatBruteForceFinds() {
        int compared = 0;
        for (long seed = 1; seed <= 400; seed++) {
            Random random = new Random(seed);
            Topology t = BruteForcePaths.randomGraph(random);
            RouterNode from = t.router("r0");
            RouterNode to = t.router("r1");
            List<BruteForcePaths.Path> all = BruteForcePaths.simplePaths(t, from, to);
            for (int k = 1; k <= 3; k++) {
                String where = "seed " + seed + ", k = " + k + ", graph " + t.links().stream().map(l -> l.name() + ":"
                        + l.delayNanos()).toList();
                List<List<Link>> paths = DisjointPaths.find(t, from, to, k, Link::delayNanos, l -> true);
                assertValidAndDisjoint(paths, from, to, where);
                int most = BruteForcePaths.most(all, k);
                assertEquals(most, paths.size(), where + ": as many paths as brute force finds");
                if (most > 0) {
                    assertEquals(BruteForcePaths.leastCost(all, most),
                            paths.stream().mapToLong(p -> DisjointPaths.total(p, Link::delayNanos)).sum(),
                            where + ": the least total cost");
                    compared++;
                }
            }
        }
        assertTrue(compared > 300, "enough graphs had paths: " + compared);
    }

    /** Each path runs from {@code from} to {@code to}, link after link; no router between the ends is on two. */
    static void assertValidAndDisjoint(List<List<Link>> paths, RouterNode from, RouterNode to, String where) {
        Set<String> inner = new HashSet<>();
        Set<Link> links = new HashSet<>();
        for (List<Link> p : paths) {
            assertFalse(p.isEmpty(), where);
            assertSame(from, p.get(0).from(), where);
            assertSame(to, p.get(p.size() - 1).to(), where);
            for (int i = 1; i < p.size(); i++) {
                assertSame(p.get(i - 1).to(), p.get(i).from(), where + ": consecutive links meet");
            }
            for (Link l : p) {
                assertTrue(links.add(l), where + ": link " + l.name() + " on two paths");
            }
            for (int i = 0; i < p.size() - 1; i++) {
                assertTrue(inner.add(p.get(i).to().id()), where + ": router " + p.get(i).to().id() + " on two paths");
            }
        }
    }

    @Test
    void ineligibleLinksAreAvoided() {
        Topology t = Topology.builder().router("s", 1).router("m", 1).router("n", 1).router("t", 1)
                .link("s", "m", 1, 1, SHARES).link("m", "t", 1, 1, SHARES)
                .link("s", "n", 1, 9, SHARES).link("n", "t", 1, 9, SHARES).build();
        List<List<Link>> paths = DisjointPaths.find(t, t.router("s"), t.router("t"), 1, Link::delayNanos,
                l -> !l.name().equals("m->t"));
        assertEquals(List.of("s->n", "n->t"), paths.get(0).stream().map(Link::name).toList());
    }
}
