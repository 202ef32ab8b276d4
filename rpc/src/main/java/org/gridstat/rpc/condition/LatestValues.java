package org.gridstat.rpc.condition;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.gridstat.core.time.Saturating;

/**
 * The latest sample of each status variable, written by a receive thread and read by the RPC
 * server's conditions. Samples arrive over redundant paths and out of order, so the one with the
 * greater source time wins, whatever the order of arrival. Source times come from the network and
 * are not trusted: a sample stamped too far ahead of the local clock is refused, or it would stay
 * "newest" and shadow every honest sample after it. The table holds at most a fixed number of
 * variables; a new name beyond that is refused and counted.
 */
public final class LatestValues implements StatusView {
    /** How far ahead of the local clock a source time may be, for clock skew between hosts. */
    public static final long FUTURE_TOLERANCE_NANOS = 1_000_000_000L;

    // Immutable, so a reader sees a sample's value and time from one update, never a torn mix.
    private record Sample(double value, long sourceTimeNanos) {
    }

    private final int maxVariables;
    private final LongSupplier epochClockNanos;
    private final ConcurrentHashMap<String, Sample> samples;
    // Slots are reserved as a new name is inserted, so racing writers cannot overfill the table.
    private final AtomicInteger reserved = new AtomicInteger();
    private final LongAdder refusedFuture = new LongAdder();
    private final LongAdder refusedFull = new LongAdder();
    private final LongAdder ignoredOlder = new LongAdder();

    /**
     * @param maxVariables    most distinct variables the table holds, at least 1
     * @param epochClockNanos the local clock, epoch nanoseconds, to refuse samples from the future
     */
    public LatestValues(int maxVariables, LongSupplier epochClockNanos) {
        if (maxVariables < 1) {
            throw new IllegalArgumentException("maxVariables must be at least 1, got " + maxVariables);
        }
        this.maxVariables = maxVariables;
        this.epochClockNanos = Objects.requireNonNull(epochClockNanos, "epochClockNanos");
        this.samples = new ConcurrentHashMap<>(Math.min(maxVariables, 1024));
    }

    /**
     * Offers a sample.
     *
     * @return true if it is now the variable's latest; false if an equal or newer sample is already
     *     held, if it is stamped more than {@link #FUTURE_TOLERANCE_NANOS} ahead of the clock, or if
     *     the variable is new and the table is full
     */
    public boolean update(String variable, double value, long sourceTimeNanos) {
        Objects.requireNonNull(variable, "variable");
        if (sourceTimeNanos > Saturating.add(epochClockNanos.getAsLong(), FUTURE_TOLERANCE_NANOS)) {
            refusedFuture.increment();
            return false;
        }
        Sample offered = new Sample(value, sourceTimeNanos);
        // compute holds the name's bin locked, so no two writers insert one name and a slot, once
        // reserved, is never given back: the count of slots is exactly the count of names.
        Sample kept = samples.compute(variable, (name, held) -> held == null
                ? (reserveSlot() ? offered : null)
                : (offered.sourceTimeNanos() > held.sourceTimeNanos() ? offered : held));
        if (kept == offered) {
            return true;
        }
        if (kept == null) {
            refusedFull.increment();
        } else {
            ignoredOlder.increment();
        }
        return false;
    }

    private boolean reserveSlot() {
        while (true) {
            int n = reserved.get();
            if (n >= maxVariables) {
                return false;
            }
            if (reserved.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    @Override
    public boolean known(String variable) {
        return samples.containsKey(variable);
    }

    /** The latest value, or NaN if no sample has arrived. */
    @Override
    public double value(String variable) {
        Sample s = samples.get(variable);
        return s == null ? Double.NaN : s.value();
    }

    /** The latest source time, or {@link Long#MIN_VALUE} if no sample has arrived. */
    @Override
    public long sourceTimeNanos(String variable) {
        Sample s = samples.get(variable);
        return s == null ? Long.MIN_VALUE : s.sourceTimeNanos();
    }

    /** Variables held. */
    public int size() {
        return samples.size();
    }

    public int maxVariables() {
        return maxVariables;
    }

    /** Samples refused because they were stamped too far ahead of the clock. */
    public long refusedFuture() {
        return refusedFuture.sum();
    }

    /** Samples of new variables refused because the table was full. */
    public long refusedFull() {
        return refusedFull.sum();
    }

    /** Samples ignored because an equal or newer one was already held (late or duplicate copies). */
    public long ignoredOlder() {
        return ignoredOlder.sum();
    }
}
