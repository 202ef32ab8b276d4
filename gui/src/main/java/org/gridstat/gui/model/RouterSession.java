package org.gridstat.gui.model;

/** A router's control session with the broker ({@code GET /routers}): up or not, and changes it has not acknowledged. */
public record RouterSession(String id, boolean connected, long unacknowledged) {
}
