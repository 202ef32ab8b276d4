package org.gridstat.sim.whatif;

import java.util.Locale;

/**
 * What a preview may cost. The console waits for the answer with an operator in front of it, so a
 * state whose simulation would take minutes is refused or shortened up front rather than left
 * running. Subscriptions and variables bound the admission replay; the simulation's work grows
 * with the copies the routers forward (every sample, on every link of its flows and on its
 * delivery), so the copies forwarded over the simulated duration are bounded too: the duration
 * is shortened to whole seconds that fit, and a network that forwards more than the bound in one
 * second is refused.
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
     * 2,000 subscriptions, 10,000 variables, 60 s, 2,000,000 copies (some seven seconds of one
     * core on the development machine, about 3.5 µs a copy).
     */
    public static final PreviewLimits DEFAULT = new PreviewLimits(2_000, 10_000, 60 * SECOND, 2_000_000L);

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
