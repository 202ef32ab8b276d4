package org.gridstat.gui.model;

/** The replica that answered ({@code GET /status}): its id, whether it leads, and the leader's API address. */
public record BrokerStatus(String replica, boolean leader, String leaderApi, long lastTakeoverMillis) {
}
