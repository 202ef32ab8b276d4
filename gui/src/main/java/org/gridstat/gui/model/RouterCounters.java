package org.gridstat.gui.model;

import java.util.Map;

/**
 * What a router last reported of itself ({@code GET /counters}): counts since it started, per
 * out-link ({@code null} report time: it never reported).
 */
public record RouterCounters(String router, boolean connected, String reportedAt, Map<String, Long> totals,
                             Map<String, Long> dropsByReason, Map<String, LinkCounters> links) {
    public RouterCounters {
        totals = Map.copyOf(totals);
        dropsByReason = Map.copyOf(dropsByReason);
        links = Map.copyOf(links);
    }

    /** One out-link's counts since the router started, and its backlog and flows now. */
    public record LinkCounters(long eventsSent, long bytesSent, long overflowDrops, long deadlineMisses, long backlog,
                               long flows) {
    }
}
