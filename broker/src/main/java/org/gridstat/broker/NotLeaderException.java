package org.gridstat.broker;

/** This broker replica is a standby; the leader, if one is known, serves the request. */
public final class NotLeaderException extends IllegalStateException {
    private final String leaderApi;

    public NotLeaderException(String replica, String leaderApi) {
        super("broker replica " + replica + " is not the leader"
                + (leaderApi.isEmpty() ? "; no leader is elected yet" : "; the leader's API is " + leaderApi));
        this.leaderApi = leaderApi;
    }

    /** The leader's management API URL, empty if none is known. */
    public String leaderApi() {
        return leaderApi;
    }
}
