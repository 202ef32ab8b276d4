package org.gridstat.broker.api;

import java.util.LinkedHashSet;
import java.util.Set;
import org.gridstat.core.time.NanoClock;

/**
 * At most so many connections to the management API. At the cap, a new connection takes the place
 * of the longest-idle one that has no request in progress (an idle keep-alive connection may be
 * closed by a server at any time); failing that, of the one that has been sending its request the
 * longest (a client that sent a byte and went quiet, or trickles): so neither a flood of idle
 * connections nor one of slow senders can exhaust the process's descriptors or lock out an
 * operator's request. Only connections whose requests the broker is answering (or holds queued)
 * are never displaced; if every connection has one, the new one is refused. Thread-safe:
 * connections on several event loops share it.
 */
final class ConnectionCap {
    /** One admitted connection: how to close it, when it was last active, whether it has a request in progress. */
    final class Slot {
        private final Runnable close;
        private volatile long lastActive;
        /** The broker answers (or holds queued) a complete request of this connection. */
        private volatile boolean inProgress;
        /** When the request being received began; {@link Long#MIN_VALUE}: none. */
        private volatile long receivingSince = Long.MIN_VALUE;

        private Slot(Runnable close) {
            this.close = close;
            this.lastActive = clock.nanoTime();
        }

        /** Bytes were read or written. */
        void active() {
            lastActive = clock.nanoTime();
        }

        /** A complete request is queued or answered (or not any more); nothing is being received. */
        void inProgress(boolean on) {
            state(on, false);
        }

        /**
         * What the connection is doing: answering (a complete request queued or being answered)
         * and receiving (a request begun, not yet complete).
         */
        void state(boolean answering, boolean receiving) {
            long now = clock.nanoTime();
            inProgress = answering;
            if (!receiving) {
                receivingSince = Long.MIN_VALUE;
            } else if (receivingSince == Long.MIN_VALUE) {
                receivingSince = now;
            }
            lastActive = now;
        }

        private boolean idle() {
            return !inProgress && receivingSince == Long.MIN_VALUE;
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
     * A slot for a new connection, closing at the cap the longest-idle connection, else the one
     * receiving its request the longest; {@code null} if every connection's request is being answered.
     */
    Slot admit(Runnable close) {
        Slot idlest = null;
        synchronized (this) {
            if (slots.size() >= max) {
                Slot slowest = null;
                for (Slot s : slots) {
                    if (s.idle() && (idlest == null || s.lastActive < idlest.lastActive)) {
                        idlest = s;
                    } else if (!s.inProgress && !s.idle()
                            && (slowest == null || s.receivingSince < slowest.receivingSince)) {
                        slowest = s;
                    }
                }
                if (idlest == null) {
                    idlest = slowest;
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
