package org.gridstat.core.stats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Counters with exactly one writer thread (the data path) and any number of readers. The writer
 * increments with a release store instead of an atomic add, so counting costs a plain increment;
 * readers see a value at most a few instructions old.
 */
public final class CounterArray {
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] values;

    public CounterArray(int size) {
        this.values = new long[size];
    }

    /** Adds one; only the owning thread may call this. */
    public void increment(int index) {
        add(index, 1);
    }

    /** Adds {@code delta}; only the owning thread may call this. */
    public void add(int index, long delta) {
        SLOTS.setRelease(values, index, (long) SLOTS.get(values, index) + delta);
    }

    /** Sets a value (a gauge, or a double's raw bits); only the owning thread may call this. */
    public void set(int index, long value) {
        SLOTS.setRelease(values, index, value);
    }

    /** Reads a counter from any thread. */
    public long get(int index) {
        return (long) SLOTS.getAcquire(values, index);
    }

    public int size() {
        return values.length;
    }
}
