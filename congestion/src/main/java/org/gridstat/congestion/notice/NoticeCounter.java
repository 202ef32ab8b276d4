package org.gridstat.congestion.notice;

import org.gridstat.core.stats.CounterDescriptor;

/** The congestion-notice channels' counters, each described once. */
enum NoticeCounter implements CounterDescriptor {
    NOTICES_RECEIVED("congestion notices from next hops"),
    NOTICES_APPLIED("notices in force (or repeating what was)"),
    NOTICES_REFUSED("notices for a variable not carried toward their sender, or for an HRT flow: ignored"),
    NOTICES_STALE("frames whose sequence number was not above the last one of their connection: ignored"),
    FRAMES_REFUSED("frames that did not decode, or did not belong on a notice channel: ignored"),
    PEERS_REFUSED("connections refused: too many, no introduction in time, an id no out-link leads to, or a"
            + " router id from an address not its link's"),
    PEERS_LOST("connections closed: by the peer, or silent for the heartbeat timeout"),
    PUBLISHER_VARIABLES("variables publishers named for their notices"),
    ADVICE_SENT("notices sent to previous hops and publishers, resends after a reconnection included"),
    ADVICE_ACKED("notices the previous hop or publisher acknowledged"),
    ADVICE_REFUSED("notices the previous hop refused (it says why in the log at debug level)"),
    ADVICE_NOT_SENT("changes of advice for a hop with no address known, or a connection not writable: sent"
            + " whole when it is"),
    REPLIES_NOT_SENT("acknowledgements and refusals not sent: the connection was not writable (its peer is not"
            + " reading)"),
    CONNECT_FAILURES("failed connections to previous hops (retried with back-off)");

    private final String description;

    NoticeCounter(String description) {
        this.description = description;
    }

    @Override
    public String description() {
        return description;
    }
}
