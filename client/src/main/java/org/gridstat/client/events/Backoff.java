package org.gridstat.client.events;

import java.time.Duration;

/**
 * How long to wait before the next connection attempt: the first wait, doubled after each failed
 * attempt up to the longest, and the first again once a stream went live. A broker restarting is
 * found again within a quarter second; a broker down for long is asked only every few seconds.
 */
final class Backoff {
    private final long firstMillis;
    private final long maxMillis;
    private long nextMillis;

    Backoff(Duration first, Duration max) {
        this.firstMillis = first.toMillis();
        this.maxMillis = max.toMillis();
        this.nextMillis = firstMillis;
    }

    /** The wait before the next attempt; each call doubles the one after, up to the longest. */
    long nextMillis() {
        long wait = nextMillis;
        nextMillis = Math.min(maxMillis, nextMillis * 2);
        return wait;
    }

    /** A stream went live: the next failure waits the first wait again. */
    void reset() {
        nextMillis = firstMillis;
    }
}
