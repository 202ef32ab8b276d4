package org.gridstat.gui.model;

import java.util.List;
import java.util.Map;

/** The broker's topology ({@code GET /topology}): routers and the links between them with their class shares. */
public record NetworkTopology(List<Router> routers, List<Link> links) {
    public NetworkTopology {
        routers = List.copyOf(routers);
        links = List.copyOf(links);
    }

    public static final NetworkTopology EMPTY = new NetworkTopology(List.of(), List.of());

    /** A router and what it can forward. */
    public record Router(String id, long capacityEventsPerSecond, String cloud) {
    }

    /** A directed link: its bandwidth, propagation delay and each class's share in percent. */
    public record Link(String from, String to, long bandwidthBytesPerSecond, long delayNanos,
                       Map<String, Integer> sharePercent) {
        public Link {
            sharePercent = Map.copyOf(sharePercent);
        }
    }
}
