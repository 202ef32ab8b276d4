package org.gridstat.gui.model;

/** A declared variable ({@code GET /variables}): its name, id, the router it is published at and its rate. */
public record Variable(String name, long id, String router, int frameBytes, long intervalNanos, String serviceClass,
                       String correlationGroup) {
    public double rateHz() {
        return intervalNanos > 0 ? 1e9 / intervalNanos : 0;
    }
}
