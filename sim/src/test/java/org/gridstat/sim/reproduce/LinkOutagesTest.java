package org.gridstat.sim.reproduce;

import static org.gridstat.sim.reproduce.RatatoskrNetwork.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gridstat.sim.engine.EventLoop;
import org.gridstat.sim.scenario.Scenario;
import org.junit.jupiter.api.Test;

/** Fixed-length outages at Poisson times: as a scenario's timeline, or drawn as the run goes. */
class LinkOutagesTest {
    private static final long END = 20_000 * S;

    @Test
    void drawnAsTheRunGoesTheyAreTheTimelinesOutages() {
        LinkOutages outages = new LinkOutages(List.of("a->b", "b->a", "b->c"), 50 * S, S, 9);
        EventLoop loop = new EventLoop();
        List<Scenario.Change> driven = new ArrayList<>();
        outages.drive(loop, c -> {
            assertEquals(loop.now(), c.atNanos());
            driven.add(c);
        });
        loop.runUntil(END - 1);
        List<Scenario.Change> timeline = new ArrayList<>(outages.timeline(END));
        timeline.sort((x, y) -> Long.compare(x.atNanos(), y.atNanos()));
        driven.sort((x, y) -> Long.compare(x.atNanos(), y.atNanos()));
        assertEquals(timeline, driven);
    }

    @Test
    void eachLinkIsDownTheShareItsOutagesGive() {
        List<String> links = List.of("a->b", "b->a", "b->c", "c->b");
        Map<String, Long> down = new HashMap<>();
        Map<String, Long> since = new HashMap<>();
        for (Scenario.Change c : new LinkOutages(links, 50 * S, S, 1).timeline(END)) {
            Scenario.LinkState s = (Scenario.LinkState) c;
            if (!s.up()) {
                since.put(s.link(), s.atNanos());
            } else {
                assertEquals(S, s.atNanos() - since.remove(s.link()), "each outage lasts 1 s");
                down.merge(s.link(), S, Long::sum);
            }
        }
        // 20,000 s: about 392 outages per link, a count that varies by 5 %: the share down is 1/51 within 3 times that
        for (String l : links) {
            double share = down.get(l) / (double) END;
            assertTrue(Math.abs(share - 1 / 51.0) < 0.05 / 51 * 3, l + ": " + share);
        }
    }
}
