package org.gridstat.statusrouter.api;

import java.util.Objects;
import org.gridstat.core.congestion.Decision;

/**
 * One decision an out-link's congestion control made, as the router keeps it among its recent ones.
 *
 * @param sequence   the decision's number since the data path started, from 0, without gaps: a reader
 *                   that saw up to {@code n} knows what is new, and a gap says the log turned over
 * @param epochNanos when it was made, on the router's epoch clock
 * @param link       the out-link's name
 * @param decision   what was decided
 */
public record CongestionDecision(long sequence, long epochNanos, String link, Decision decision) {
    public CongestionDecision {
        Objects.requireNonNull(link, "link");
        Objects.requireNonNull(decision, "decision");
    }

    @Override
    public String toString() {
        return "#" + sequence + " link " + link + ": " + decision;
    }
}
