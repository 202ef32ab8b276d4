package org.gridstat.gateway.device;

import org.slf4j.Logger;

/**
 * At most one WARN line a second for one peer: a client that sends a bad command in a loop must
 * not fill the log. Lines held back are counted and the count goes out with the next one.
 * Used from the I/O thread only.
 */
final class RateLimitedWarning {
    private static final long INTERVAL_NANOS = 1_000_000_000L;

    private long lastNanos;
    private boolean warned;
    private int suppressed;

    void warn(Logger log, String peer, String message) {
        long now = System.nanoTime();
        if (warned && now - lastNanos < INTERVAL_NANOS) {
            suppressed++;
            return;
        }
        if (suppressed > 0) {
            log.warn("{}: {} ({} similar warnings held back)", peer, message, suppressed);
        } else {
            log.warn("{}: {}", peer, message);
        }
        warned = true;
        lastNanos = now;
        suppressed = 0;
    }
}
