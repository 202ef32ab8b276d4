package org.gridstat.node.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The progress line of a simulation run: simulated seconds done of the total. The simulation says
 * how far it is at each report interval, on simulated time only; this looks at the wall clock to
 * print nothing for a run shorter than {@link #QUIET_NANOS} and at most one line each
 * {@link #EVERY_NANOS} after that.
 */
final class SimProgress implements LongConsumer {
    static final long QUIET_NANOS = 1_000_000_000L;
    static final long EVERY_NANOS = 250_000_000L;

    private final PrintWriter err;
    private final LongSupplier wallNanos;
    private final long totalNanos;
    private final boolean sameLine;
    private final long started;
    private long printed = Long.MIN_VALUE;
    private boolean open;

    /**
     * @param sameLine whether each line overwrites the last (a terminal) or follows it (a log)
     */
    SimProgress(PrintWriter err, LongSupplier wallNanos, long totalNanos, boolean sameLine) {
        this.err = err;
        this.wallNanos = wallNanos;
        this.totalNanos = totalNanos;
        this.sameLine = sameLine;
        this.started = wallNanos.getAsLong();
    }

    @Override
    public void accept(long simulatedNanos) {
        long now = wallNanos.getAsLong();
        if (now - started < QUIET_NANOS || (printed != Long.MIN_VALUE && now - printed < EVERY_NANOS)) {
            return;
        }
        printed = now;
        String line = String.format(Locale.ROOT, "simulated %.1f s of %.1f s (%d %%)", simulatedNanos / 1e9,
                totalNanos / 1e9, Math.round(100.0 * simulatedNanos / totalNanos));
        if (sameLine) {
            err.print("\r" + line);
            open = true;
        } else {
            err.println(line);
        }
        err.flush();
    }

    /** Ends the line a terminal was overwriting. */
    void finish() {
        if (open) {
            err.println();
            err.flush();
            open = false;
        }
    }
}
