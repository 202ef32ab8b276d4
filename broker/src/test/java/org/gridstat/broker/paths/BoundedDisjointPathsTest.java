package org.gridstat.broker.paths;

import static org.junit.jupiter.api.Assertions.*;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.gridstat.broker.paths.BoundedDisjointPaths.Outcome;
import org.gridstat.broker.paths.BoundedDisjointPaths.Result;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.RouterNode;
import org.gridstat.broker.topology.Topology;
import org.junit.jupiter.api.Test;

class BoundedDisjointPathsTest {
    /**
     * On random graphs and bounds, k paths each within the bound are found exactly when brute force
     * finds a set of them, and "none" is said exactly when it finds none; so too by the exact
     * search alone, without the least-cost step that settles most queries before it. With a budget of a few
     * steps the search gives up somewhere; what it then finds is still valid, and it never claims
     * "none" where paths exist.
     */
    @Test
    void findsPathsWithinTheBoundExactlyWhenBruteForceDoes() {
        Map<Outcome, Integer> outcomes = new EnumMap<>(Outcome.class);
        Map<Outcome, Integer> starved = new EnumMap<>(Outcome.class);
        int leastCostBroke = 0;
        for (long seed = 1; seed <= 600; seed++) {
            Random random = new Random(seed);
            Topology t = seed % 2 == 0 ? BruteForcePaths.plantedTrap(random)
                    : BruteForcePaths.randomGraph(random, 6 + random.nextInt(4), 3 + random.nextInt(2));
            RouterNode from = t.router("r0");
            RouterNode to = t.router("r1");
            List<BruteForcePaths.Path> all = BruteForcePaths.simplePaths(t, from, to);
            BoundedDisjointPaths exact = new BoundedDisjointPaths(t);
            BoundedDisjointPaths poor = new BoundedDisjointPaths(t, 3);
            BoundedDisjointPaths searchOnly = new BoundedDisjointPaths(t, BoundedDisjointPaths.DEFAULT_STEP_BUDGET, false);
            for (int k = 1; k <= 3; k++) {
                // at the edge of what exists: the least bound k paths can meet, or just below; else some path's cost
                long edge = BruteForcePaths.leastMax(all, k);
                long bound = edge >= 0 && random.nextBoolean() ? edge - random.nextInt(2)
                        : all.isEmpty() ? 20 : all.get(random.nextInt(all.size())).cost();
                String where = "seed " + seed + ", k = " + k + ", bound " + bound + ", graph " + t.links().stream()
                        .map(l -> l.name() + ":" + l.delayNanos()).toList();
                List<BruteForcePaths.Path> within = all.stream().filter(p -> p.cost() <= bound).toList();
                boolean exists = BruteForcePaths.leastCost(within, k) >= 0;
                List<List<Link>> cheapest = DisjointPaths.find(t, from, to, k, Link::delayNanos, l -> true);
                if (cheapest.size() == k && cheapest.stream().anyMatch(p -> DisjointPaths.total(p, Link::delayNanos) > bound)
                        && exists) {
                    leastCostBroke++;
                }

                Result r = exact.search(from, to, k, bound, Link::delayNanos, l -> true);
                assertEquals(exists ? Outcome.FOUND : Outcome.NONE, r.outcome(), where);
                assertWithin(r, k, bound, from, to, where);
                outcomes.merge(r.outcome(), 1, Integer::sum);

                Result alone = searchOnly.search(from, to, k, bound, Link::delayNanos, l -> true);
                assertEquals(r.outcome(), alone.outcome(), where + " (the exact search alone)");
                assertWithin(alone, k, bound, from, to, where + " (the exact search alone)");

                Result s = poor.search(from, to, k, bound, Link::delayNanos, l -> true);
                assertWithin(s, k, bound, from, to, where + " (3 steps)");
                assertFalse(exists && s.outcome() == Outcome.NONE, where + ": none claimed with 3 steps");
                assertFalse(!exists && s.outcome() == Outcome.FOUND, where + ": found with 3 steps");
                starved.merge(s.outcome(), 1, Integer::sum);
            }
        }
        assertTrue(outcomes.getOrDefault(Outcome.FOUND, 0) > 100 && outcomes.getOrDefault(Outcome.NONE, 0) > 100,
                "both outcomes seen: " + outcomes);
        assertTrue(leastCostBroke > 10, "cases where the least-cost paths break the bound but others meet it: "
                + leastCostBroke);
        assertTrue(starved.getOrDefault(Outcome.GAVE_UP, 0) > 0, "the budget ran out somewhere: " + starved);
    }

    private static void assertWithin(Result r, int k, long bound, RouterNode from, RouterNode to, String where) {
        if (r.outcome() != Outcome.FOUND) {
            assertEquals(List.of(), r.paths(), where);
            return;
        }
        assertEquals(k, r.paths().size(), where);
        DisjointPathsTest.assertValidAndDisjoint(r.paths(), from, to, where);
        for (List<Link> p : r.paths()) {
            assertTrue(DisjointPaths.total(p, Link::delayNanos) <= bound, where + ": " + p + " beyond the bound");
        }
    }

    /** s -> a -> b -> t takes both a and b; beside it only s -> c -> t (10.5) is left; s -> a -> t and s -> b -> t take 7. */
    private static Topology trap() {
        Topology.Builder b = Topology.builder();
        for (String r : List.of("s", "a", "b", "c", "t")) {
            b.router(r, 1000, 0, "");
        }
        var shares = Topology.Builder.defaultShares();
        return b.link("s", "a", 1000, 10, shares).link("a", "b", 1000, 10, shares).link("b", "t", 1000, 10, shares)
                .link("a", "t", 1000, 60, shares).link("s", "b", 1000, 60, shares).link("s", "c", 1000, 50, shares)
                .link("c", "t", 1000, 55, shares).build();
    }

    @Test
    void theLeastCostPairBreaksTheBoundButTwoMediumPathsMeetIt() {
        Topology t = trap();
        List<List<Link>> cheapest = DisjointPaths.find(t, t.router("s"), t.router("t"), 2, Link::delayNanos, l -> true);
        assertEquals(List.of(30L, 105L), cheapest.stream().map(p -> DisjointPaths.total(p, Link::delayNanos)).toList());
        Result r = new BoundedDisjointPaths(t).search(t.router("s"), t.router("t"), 2, 80, Link::delayNanos, l -> true);
        assertEquals(Outcome.FOUND, r.outcome());
        assertEquals(List.of(List.of("s->a", "a->t"), List.of("s->b", "b->t")),
                r.paths().stream().map(p -> p.stream().map(Link::name).toList()).toList());
        Result none = new BoundedDisjointPaths(t).search(t.router("s"), t.router("t"), 2, 60, Link::delayNanos, l -> true);
        assertEquals(Outcome.NONE, none.outcome());
        BoundedDisjointPaths search = new BoundedDisjointPaths(t);
        assertEquals(Outcome.FOUND, search.search(t.router("s"), t.router("t"), 3, 105, Link::delayNanos, l -> true).outcome());
        assertEquals(Outcome.NONE, search.search(t.router("s"), t.router("t"), 3, 104, Link::delayNanos, l -> true).outcome());
        assertEquals(Outcome.NONE, search.search(t.router("s"), t.router("t"), 4, 1000, Link::delayNanos, l -> true).outcome(),
                "only three node-disjoint paths exist at all");
    }

    @Test
    void ineligibleLinksAreNotUsed() {
        Topology t = trap();
        Result r = new BoundedDisjointPaths(t).search(t.router("s"), t.router("t"), 2, 80, Link::delayNanos,
                l -> !l.name().equals("a->t"));
        assertEquals(Outcome.NONE, r.outcome());
    }
}
