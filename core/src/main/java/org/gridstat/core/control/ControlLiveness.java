package org.gridstat.core.control;

import org.gridstat.core.time.NanoClock;

/**
 * When one end of a control connection should send a {@link ControlMessage.Heartbeat} and when it
 * should give its peer up. Any frame counts: a heartbeat is due once nothing was sent for a
 * period, and the peer is silent once nothing was heard for the timeout. TCP alone cannot tell: a
 * frozen process's kernel keeps the connection open and even accepts new ones. Driven by the
 * clock it is given; the socket side only calls {@link #poll} now and then and does what it says.
 * Not thread-safe: one connection's thread owns it.
 */
public final class ControlLiveness {
    /** What the connection should do now. */
    public enum Due {
        NOTHING,
        /** Send a heartbeat (counted as sent). */
        HEARTBEAT,
        /** The peer has said nothing for the timeout: close the connection. */
        SILENT
    }

    /**
     * The heartbeat period and the silence after which a peer is given up; the timeout must be
     * longer than the period, or a live peer's heartbeats could not keep it.
     */
    public record Timing(long periodNanos, long timeoutNanos) {
        public static final Timing DEFAULT = new Timing(1_000_000_000L, 3_000_000_000L);

        public Timing {
            if (periodNanos <= 0) {
                throw new IllegalArgumentException("heartbeat period must be positive, got " + periodNanos + " ns");
            }
            if (timeoutNanos <= periodNanos) {
                throw new IllegalArgumentException("heartbeat timeout (" + timeoutNanos / 1_000_000
                        + " ms) must be longer than the heartbeat period (" + periodNanos / 1_000_000 + " ms)");
            }
        }

        public static Timing ofMillis(long periodMs, long timeoutMs) {
            if (periodMs <= 0 || timeoutMs <= 0 || periodMs > Long.MAX_VALUE / 1_000_000 || timeoutMs > Long.MAX_VALUE / 1_000_000) {
                throw new IllegalArgumentException("heartbeat period and timeout must be positive milliseconds, got "
                        + periodMs + " and " + timeoutMs);
            }
            return new Timing(periodMs * 1_000_000, timeoutMs * 1_000_000);
        }

        /** How often the socket side should poll: often enough that neither duty is late by more than a quarter period. */
        public long pollNanos() {
            return Math.max(1_000_000L, periodNanos / 4);
        }
    }

    private final NanoClock clock;
    private final Timing timing;
    private long lastHeard;
    private long lastSent;

    /** A connection that has just opened: the peer has the whole timeout to speak. */
    public ControlLiveness(NanoClock clock, Timing timing) {
        this.clock = clock;
        this.timing = timing;
        long now = clock.nanoTime();
        this.lastHeard = now;
        this.lastSent = now;
    }

    /** A frame arrived from the peer. */
    public void heard() {
        lastHeard = clock.nanoTime();
    }

    /** A frame was sent to the peer. */
    public void sent() {
        lastSent = clock.nanoTime();
    }

    /** Whether the peer has been silent for the timeout (without changing anything). */
    public boolean silent() {
        return clock.nanoTime() - lastHeard >= timing.timeoutNanos();
    }

    /** How long the peer has been silent, ns. */
    public long silenceNanos() {
        return clock.nanoTime() - lastHeard;
    }

    /** What is due now; a heartbeat returned counts as sent. */
    public Due poll() {
        long now = clock.nanoTime();
        if (now - lastHeard >= timing.timeoutNanos()) {
            return Due.SILENT;
        }
        if (now - lastSent >= timing.periodNanos()) {
            lastSent = now;
            return Due.HEARTBEAT;
        }
        return Due.NOTHING;
    }

    public Timing timing() {
        return timing;
    }
}
