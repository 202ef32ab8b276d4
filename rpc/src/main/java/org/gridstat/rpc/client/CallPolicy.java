package org.gridstat.rpc.client;

import org.gridstat.rpc.transport.Redundancy;

/**
 * How a call is made: the redundancy of its request (the reply mirrors it), the deadline from the
 * call (the server refuses the request after it; the caller stops waiting then), and how long
 * after the call the caller waits for a post-condition report at most.
 */
public record CallPolicy(Redundancy redundancy, long deadlineNanos, long postWaitNanos) {
    public CallPolicy {
        if (redundancy == null) {
            throw new IllegalArgumentException("a call policy needs a redundancy");
        }
        if (deadlineNanos <= 0 || postWaitNanos < 0) {
            throw new IllegalArgumentException("the deadline must be positive and the post-condition wait not negative");
        }
    }

    /** Waits for a post-condition report up to 10 s after the call. */
    public static CallPolicy of(Redundancy redundancy, long deadlineNanos) {
        return new CallPolicy(redundancy, deadlineNanos, Math.max(deadlineNanos, 10_000_000_000L));
    }
}
