package org.gridstat.broker.api;

import java.util.LinkedHashSet;
import java.util.Set;
import org.gridstat.core.time.NanoClock;

/**
 * At most so many connections to the management API. At the cap, a new connection takes the place
 * of the longest-idle one that has no request in progress (an idle keep-alive connection may be
 * closed by a server at any time), so a flood of idle connections can neither exhaust the
 * process's descriptors nor lock out an operator's request; if every connection has a request in
 * progress, the new one is refused. Thread-safe: connections on several event loops share it.
 */
final class ConnectionCap {
    /** One admitted connection: how to close it, when it was last active, whether it has a request in progress. */
    final class Slot {
        private final Runnable close;
        private volatile long lastActive;
        private volatile boolean inProgress;

        private Slot(Runnable close) {
            this.close = close;
            this.lastActive = clock.nanoTime();
        }

        /** Bytes were read or written. */
        void active() {
            lastActive = clock.nanoTime();
        }

        /** A request is being received or answered (or not any more). */
        void inProgress(boolean on) {
            inProgress = on;
            lastActive = clock.nanoTime();
        }

        /** The connection closed. */
        void release() {
            synchronized (ConnectionCap.this) {
                slots.remove(this);
            }
        }
    }

    private final int max;
    private final NanoClock clock;
    private final Set<Slot> slots = new LinkedHashSet<>();
    private long displaced;
    private long refused;

    ConnectionCap(int max, NanoClock clock) {
        if (max < 1) {
            throw new IllegalArgumentException("connection cap must be positive, got " + max);
        }
        this.max = max;
        this.clock = clock;
    }

    /**
     * A slot for a new connection, closing the longest-idle connection without a request in
     * progress if the cap is reached; {@code null} if every connection has one in progress.
     */
    Slot admit(Runnable close) {
        Slot idlest = null;
        synchronized (this) {
            if (slots.size() >= max) {
                for (Slot s : slots) {
                    if (!s.inProgress && (idlest == null || s.lastActive < idlest.lastActive)) {
                        idlest = s;
                    }
                }
                if (idlest == null) {
                    refused++;
                    return null;
                }
                slots.remove(idlest);
                displaced++;
            }
            Slot slot = new Slot(close);
            slots.add(slot);
            if (idlest == null) {
                return slot;
            }
            idlest.close.run();
            return slot;
        }
    }

    synchronized int open() {
        return slots.size();
    }

    /** Connections closed to make room for a new one. */
    synchronized long displaced() {
        return displaced;
    }

    /** New connections refused because every place had a request in progress. */
    synchronized long refused() {
        return refused;
    }
}
