package org.gridstat.gateway.device;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes handed to one Netty channel and not yet written to its socket. Counted here rather than
 * read from Netty's water marks so the limit is exact whichever thread writes: a data frame is
 * admitted only if it fits, and a frozen client can make the server hold at most the limit.
 */
final class PendingBytes {
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong peak = new AtomicLong();
    private final long limit;

    PendingBytes(long limit) {
        this.limit = limit;
    }

    /** Counts {@code n} bytes in if they fit under the limit. */
    boolean tryAdd(int n) {
        while (true) {
            long p = pending.get();
            if (p + n > limit) {
                return false;
            }
            if (pending.compareAndSet(p, p + n)) {
                notePeak(p + n);
                return true;
            }
        }
    }

    /** Counts {@code n} bytes in whatever the limit: answers to commands are never dropped on TCP. */
    void add(int n) {
        notePeak(pending.addAndGet(n));
    }

    /** The bytes are written, or the channel failed; answers what is still pending. */
    long remove(int n) {
        return pending.addAndGet(-n);
    }

    private void notePeak(long p) {
        long seen;
        while (p > (seen = peak.get()) && !peak.compareAndSet(seen, p)) {
            // another thread raised it first: retry against the new peak
        }
    }

    long get() {
        return pending.get();
    }

    long peak() {
        return peak.get();
    }

    long limit() {
        return limit;
    }
}
