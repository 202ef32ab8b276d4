package org.gridstat.core.time;

import java.time.Instant;

/**
 * Wall-clock time at nanosecond resolution without a system call that allocates: the monotonic
 * {@link System#nanoTime()} is anchored to the wall clock and re-anchored once a second, so the
 * reading follows NTP adjustments within a second. If the host's clock is stepped, readings step
 * with it at the next re-anchor.
 */
public final class SystemClock implements Clock {
    private static final long REANCHOR_NANOS = 1_000_000_000L;

    /** One shared instance; it is thread-safe. */
    public static final SystemClock INSTANCE = new SystemClock();

    private static final class Anchor {
        final long epochNanos;
        final long monoNanos;

        Anchor(long epochNanos, long monoNanos) {
            this.epochNanos = epochNanos;
            this.monoNanos = monoNanos;
        }
    }

    private volatile Anchor anchor = newAnchor();

    private SystemClock() {
    }

    /**
     * Pairs a wall-clock reading with a monotonic one. The two reads are not atomic: a thread
     * descheduled between them would anchor the epoch scale off by as long as it waited, so the
     * pair read in the shortest window of a few tries is kept.
     */
    private static Anchor newAnchor() {
        Anchor best = null;
        long bestWindow = Long.MAX_VALUE;
        for (int i = 0; i < 3 && bestWindow > 20_000; i++) {
            long before = System.nanoTime();
            Instant now = Instant.now();
            long after = System.nanoTime();
            if (after - before < bestWindow) {
                bestWindow = after - before;
                best = new Anchor(now.getEpochSecond() * 1_000_000_000L + now.getNano(), before + (after - before) / 2);
            }
        }
        return best;
    }

    @Override
    public long nanos() {
        long mono = System.nanoTime();
        Anchor a = anchor;
        if (mono - a.monoNanos > REANCHOR_NANOS) {
            a = newAnchor();
            anchor = a;
            mono = a.monoNanos;
        }
        return a.epochNanos + (mono - a.monoNanos);
    }
}
