package org.gridstat.sim.whatif;

import java.util.Locale;

/**
 * What a preview may cost. The console waits for the answer with an operator in front of it, so a
 * state whose simulation would take minutes is refused or shortened up front rather than left
 * running. Subscriptions and variables bound the admission replay; the simulation's work grows
 * with the copies the routers forward (every sample, on every link of its flows and on its
 * delivery), so the copies forwarded over the simulated duration are bounded too: the duration
 * is shortened to whole seconds that fit, and a network that forwards more than the bound in one
 * second is refused. The simulation also holds histograms for each subscription and each flow,
 * hundreds of megabytes for a state at the limits: a run that would hold more than half the heap
 * is refused, and the two runs of an admitted candidate go side by side only if together they
 * hold at most a quarter of it.
 *
 * @param maxSubscriptions the most admitted subscriptions a state may hold
 * @param maxVariables     the most declared variables a state may hold
 * @param maxDurationNanos the longest simulated duration; a longer one asked for is capped to it
 * @param maxCopies        the most copies the planned flows may forward over the simulated
 *                         duration in one run, estimated from their rates (the surge's counted)
 */
public record PreviewLimits(int maxSubscriptions, int maxVariables, long maxDurationNanos, long maxCopies) {
    private static final long SECOND = 1_000_000_000L;
    /**
     * 2,000 subscriptions, 10,000 variables, 60 s, 1,000,000 copies: a simulation costs some 4 to
     * 7 µs of a core a copy, so a run at the limit takes a few seconds, and the two runs of an
     * admitted candidate go side by side.
     */
    public static final PreviewLimits DEFAULT = new PreviewLimits(2_000, 10_000, 60 * SECOND, 1_000_000L);

    /** What a run holds per subscription: the latency histogram of its whole run (1 µs..1 min, 3 digits). */
    static final long BYTES_PER_SUBSCRIPTION = 150_000;
    /** What a run holds per flow: its queue's latency recorder, pair and totals (1 µs..10 s, 2 digits). */
    static final long BYTES_PER_FLOW = 80_000;

    public PreviewLimits {
        if (maxSubscriptions < 1 || maxVariables < 1 || maxDurationNanos < SECOND || maxCopies < 1) {
            throw new IllegalArgumentException("preview limits must be positive, the duration at least a second");
        }
    }

    /** The duration asked, in whole seconds (rows are a second wide) rounded up, at most the cap. */
    long capped(long requestedNanos) {
        long seconds = Math.max(1, (requestedNanos + SECOND - 1) / SECOND);
        return Math.min(seconds, maxDurationNanos / SECOND) * SECOND;
    }

    /**
     * The duration simulated for {@code cappedNanos} asked when the flows forward
     * {@code copiesPerSecond}: the whole seconds within {@link #maxCopies}.
     *
     * @throws PreviewTooLargeException if not even one second fits
     */
    long affordable(long cappedNanos, double copiesPerSecond) {
        long seconds = copiesPerSecond <= 0 ? cappedNanos / SECOND : (long) Math.floor(maxCopies / copiesPerSecond);
        if (seconds < 1) {
            throw new PreviewTooLargeException(String.format(Locale.ROOT,
                    "the network would forward %,.0f copies a second; a preview simulates at most %,d copies",
                    copiesPerSecond, maxCopies));
        }
        return Math.min(cappedNanos, seconds * SECOND);
    }

    /** The heap one run holds for its histograms, about. */
    static long bytesPerRun(int subscriptions, int flows) {
        return subscriptions * BYTES_PER_SUBSCRIPTION + flows * BYTES_PER_FLOW;
    }

    /**
     * Whether the two runs of an admitted candidate may go side by side in a heap of
     * {@code heapBytes}, each holding {@code bytesPerRun}.
     *
     * @throws PreviewTooLargeException if one run alone would hold more than half the heap
     */
    static boolean sideBySide(long bytesPerRun, long heapBytes) {
        if (bytesPerRun > heapBytes / 2) {
            throw new PreviewTooLargeException(String.format(Locale.ROOT,
                    "the simulation would hold about %,d MB of histograms for its subscriptions and flows; this JVM's"
                            + " heap is %,d MB", bytesPerRun >> 20, heapBytes >> 20));
        }
        return 2 * bytesPerRun <= heapBytes / 4;
    }

    /**
     * Refuses a state beyond the subscriptions and variables allowed, naming the limit.
     *
     * @throws PreviewTooLargeException if it is
     */
    void check(State state) {
        if (state.subscriptions().size() > maxSubscriptions) {
            throw new PreviewTooLargeException(String.format(Locale.ROOT,
                    "the state holds %,d subscriptions; a preview takes at most %,d", state.subscriptions().size(),
                    maxSubscriptions));
        }
        if (state.variables().size() > maxVariables) {
            throw new PreviewTooLargeException(String.format(Locale.ROOT,
                    "the state declares %,d variables; a preview takes at most %,d", state.variables().size(), maxVariables));
        }
    }
}
