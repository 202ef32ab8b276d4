package org.gridstat.broker.paths;

import static org.junit.jupiter.api.Assertions.*;

import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.gridstat.broker.topology.Link;
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
    void pathsOnRandomGraphsAreValidAndNodeDisjoint() {
        Random random = new Random(5);
        for (int round = 0; round < 200; round++) {
            int n = 6 + random.nextInt(10);
            Topology.Builder b = Topology.builder();
            for (int i = 0; i < n; i++) {
                b.router("r" + i, 1000);
            }
            Set<String> made = new HashSet<>();
            for (int e = 0; e < n * 2; e++) {
                int x = random.nextInt(n);
                int y = random.nextInt(n);
                if (x != y && made.add(x + "-" + y)) {
                    b.link("r" + x, "r" + y, 1000, 1 + random.nextInt(20), SHARES);
                }
            }
            Topology t = b.build();
            List<List<Link>> paths = DisjointPaths.find(t, t.router("r0"), t.router("r1"), 3, Link::delayNanos, l -> true);
            Set<String> inner = new HashSet<>();
            for (List<Link> p : paths) {
                assertEquals("r0", p.get(0).from().id());
                assertEquals("r1", p.get(p.size() - 1).to().id());
                for (int i = 1; i < p.size(); i++) {
                    assertSame(p.get(i - 1).to(), p.get(i).from(), "consecutive links meet");
                }
                for (int i = 0; i < p.size() - 1; i++) {
                    assertTrue(inner.add(p.get(i).to().id()), "router " + p.get(i).to().id() + " on two paths");
                }
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
