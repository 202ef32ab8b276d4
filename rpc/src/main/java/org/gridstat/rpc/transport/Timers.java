package org.gridstat.rpc.transport;

/**
 * The clock and the timers of the thread that runs an endpoint: the simulator's event loop on
 * simulated time, or one executor thread in a real node. Every call on an endpoint and every task
 * run here happen in that thread.
 */
public interface Timers {
    /** A monotonic clock in nanoseconds (simulated time in the simulator). */
    long nowNanos();

    /** The epoch (UTC) clock in nanoseconds: deadlines and sample times. */
    long epochNanos();

    /** Runs {@code task} {@code delayNanos} from now, in the endpoint's thread. */
    Cancellable after(long delayNanos, Runnable task);

    /** A timer that may still be called off. */
    @FunctionalInterface
    interface Cancellable {
        void cancel();
    }
}
