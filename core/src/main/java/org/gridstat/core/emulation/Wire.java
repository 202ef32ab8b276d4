package org.gridstat.core.emulation;

import org.gridstat.core.time.Saturating;

/**
 * A link's transmitter: a FIFO that serializes bytes at the link's capacity, behind a queue of a
 * bounded number of bytes. Time is kept exactly: the wire is busy until {@code busyUntil} plus
 * {@code carry}/capacity of a nanosecond, so back-to-back packets never drift from the capacity
 * however their sizes divide it. Single-threaded.
 */
final class Wire {
    /** Capacities above this (8 Ebit/s) are as good as infinite and would overflow the exact arithmetic. */
    static final long MAX_CAPACITY = 1_000_000_000_000_000_000L;
    private static final long SECOND = 1_000_000_000L;

    private final long capacity;
    /** The queue bound in the scaled unit: byte-nanoseconds per second (bytes × 10⁹). */
    private final long queueScaled;
    private long busyUntil = Long.MIN_VALUE;
    /** What the last byte needs past {@code busyUntil}, in 1/capacity of a nanosecond; below capacity. */
    private long carry;

    /**
     * @param capacityBytesPerSecond 1 .. {@link #MAX_CAPACITY}
     * @param queueBytes             bytes that may wait for the wire, the one being sent included
     */
    Wire(long capacityBytesPerSecond, long queueBytes) {
        this.capacity = capacityBytesPerSecond;
        this.queueScaled = multiply(queueBytes, SECOND);
    }

    /** Whether {@code bytes} more fit in the queue at {@code now}. */
    boolean hasRoom(long now, int bytes) {
        return Saturating.add(backlogScaled(now), (long) bytes * SECOND) <= queueScaled;
    }

    /**
     * Queues {@code bytes} at {@code now}.
     *
     * @return when their last byte has left, to the nanosecond below
     */
    long send(long now, int bytes) {
        if (busyUntil < now) {
            busyUntil = now; // idle: a fraction of a nanosecond already past is no debt
            carry = 0;
        }
        long scaled = (long) bytes * SECOND + carry; // < 2^31·10⁹ + 10¹⁸: no overflow
        busyUntil = Saturating.add(busyUntil, scaled / capacity);
        carry = scaled % capacity;
        return busyUntil;
    }

    /** Bytes queued or on the wire at {@code now} and not yet sent, rounded down. */
    long backlogBytes(long now) {
        return backlogScaled(now) / SECOND;
    }

    private long backlogScaled(long now) {
        if (busyUntil < now) {
            return 0;
        }
        return Saturating.add(multiply(Saturating.subtract(busyUntil, now), capacity), carry);
    }

    /** {@code a × b} for non-negative operands, saturating at {@link Long#MAX_VALUE}. */
    private static long multiply(long a, long b) {
        return a != 0 && b > Long.MAX_VALUE / a ? Long.MAX_VALUE : a * b;
    }
}
