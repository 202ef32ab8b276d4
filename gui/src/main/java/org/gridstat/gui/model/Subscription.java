package org.gridstat.gui.model;

import java.util.List;

/**
 * An admitted subscription ({@code GET /subscriptions}): the variable, where it is delivered, its
 * QoS, its paths and whether every router on them installed its flows ({@code installed},
 * {@code installing}, {@code installRefused} with the routers' reasons).
 */
public record Subscription(long id, String variable, String subscriberRouter, String subscriberLink, double rateHz,
                           double latencyBoundMs, int pathCount, String serviceClass, String correlationGroup,
                           List<List<Hop>> paths, String state, List<String> installRefusals) {
    public Subscription {
        paths = paths.stream().map(List::copyOf).toList();
        installRefusals = List.copyOf(installRefusals);
        correlationGroup = correlationGroup == null ? "" : correlationGroup;
    }

    /** Whether one of its paths forwards over {@code link} at {@code router} (a next router, or its delivery link). */
    public boolean uses(String router, String link) {
        for (List<Hop> p : paths) {
            for (Hop h : p) {
                if (h.router().equals(router) && link.equals(h.next() != null ? h.next() : subscriberLink)) {
                    return true;
                }
            }
        }
        return false;
    }
}
