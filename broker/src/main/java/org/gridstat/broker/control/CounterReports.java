package org.gridstat.broker.control;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.gridstat.core.control.ControlMessage.RouterReport;

/**
 * The latest counters each router reported of itself: totals, ingress drops by reason and per
 * out-link figures. A report replaces the totals and drops and the figures of the links it names
 * (a router with many links spreads them over several reports of one instant); links not named
 * for {@link #STALE_LINK_MILLIS} are forgotten. Bounded: only routers with a session report, and
 * at most {@link #MAX_LINKS} links each.
 */
public final class CounterReports {
    /** Most out-links kept per router. */
    public static final int MAX_LINKS = 1024;
    /** A link not reported for this long (a removed out-link) is forgotten. */
    static final long STALE_LINK_MILLIS = 60_000;

    /** A router's latest counters, at the time its last report was taken (ms since 1970). */
    public record Latest(long timeMillis, Map<String, Long> totals, Map<String, Long> drops,
                         Map<String, Map<String, Long>> links) {
    }

    private record Link(long timeMillis, Map<String, Long> figures) {
    }

    private record Router(long timeMillis, Map<String, Long> totals, Map<String, Long> drops, Map<String, Link> links) {
    }

    private final Map<String, Router> byRouter = new ConcurrentHashMap<>();

    /** Keeps a router's report; returns how many of its links were ignored (over the bound). */
    int accept(String router, RouterReport r) {
        int[] ignored = {0};
        byRouter.compute(router, (id, before) -> {
            Map<String, Link> links = new LinkedHashMap<>();
            if (before != null) {
                before.links().forEach((name, l) -> {
                    if (r.timeMillis() - l.timeMillis() < STALE_LINK_MILLIS) {
                        links.put(name, l);
                    }
                });
            }
            r.links().forEach((name, figures) -> {
                if (links.containsKey(name) || links.size() < MAX_LINKS) {
                    links.put(name, new Link(r.timeMillis(), figures));
                } else {
                    ignored[0]++;
                }
            });
            return new Router(r.timeMillis(), r.totals(), r.drops(), links);
        });
        return ignored[0];
    }

    /** A router's latest counters, or {@code null} if it has reported none. */
    public Latest latest(String router) {
        Router r = byRouter.get(router);
        if (r == null) {
            return null;
        }
        Map<String, Map<String, Long>> links = new LinkedHashMap<>();
        r.links().forEach((name, l) -> links.put(name, l.figures()));
        return new Latest(r.timeMillis(), r.totals(), r.drops(), Collections.unmodifiableMap(links));
    }
}
