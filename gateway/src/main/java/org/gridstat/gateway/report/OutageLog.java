package org.gridstat.gateway.report;

import org.gridstat.core.time.NanoClock;

/**
 * Decides which failures of a periodic task are worth a log line: the first of an outage, then at
 * most one a minute (with how many went unlogged), and the recovery. A broker down for a day
 * costs the log 1,440 lines, not 43,200. Used from one thread.
 */
final class OutageLog {
    static final long EVERY_NANOS = 60_000_000_000L;

    private final NanoClock clock;
    private boolean down;
    private long loggedAt;
    private long failures;
    private long unlogged;

    OutageLog(NanoClock clock) {
        this.clock = clock;
    }

    /** A failure: the line to log, or null to stay quiet. */
    String failed(String why) {
        failures++;
        long now = clock.nanoTime();
        if (down && now - loggedAt < EVERY_NANOS) {
            unlogged++;
            return null;
        }
        String line = down ? why + " (" + unlogged + " more failures since the last such line)" : why;
        down = true;
        loggedAt = now;
        unlogged = 0;
        return line;
    }

    /** A success: the line saying the outage is over, or null if there was none. */
    String succeeded() {
        if (!down) {
            return null;
        }
        String line = "reaching the broker again after " + failures + " failed reports";
        down = false;
        failures = 0;
        unlogged = 0;
        return line;
    }
}
