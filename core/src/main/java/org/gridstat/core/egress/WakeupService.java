package org.gridstat.core.egress;

/**
 * How a {@link DataPathAgent} asks to run its next duty cycle. The agent names one time, the
 * earliest at which any of its links or timers has work; a later call replaces the earlier one.
 * A router serves it with event-loop timers and a pacing tick (waking up to one tick late); the
 * simulator with an event at exactly that time. Called on the data-path thread only.
 */
public interface WakeupService {
    /**
     * Run a duty cycle at or after {@code monoNanos} (on the agent's monotonic clock);
     * {@link Long#MAX_VALUE}: nothing is due, wake only for new input.
     */
    void wakeAt(long monoNanos);
}
