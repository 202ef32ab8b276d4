package org.gridstat.core.forward;

import java.util.Arrays;

/**
 * An open-addressing map from primitive longs to objects, with backward-shift deletion so lookups
 * never wade through tombstones. Lookups neither box nor allocate. Single-threaded.
 */
final class LongObjectMap<V> {
    private long[] keys;
    private Object[] values;
    private int mask;
    private int size;

    LongObjectMap(int expected) {
        int capacity = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
        keys = new long[capacity];
        values = new Object[capacity];
        mask = capacity - 1;
    }

    int size() {
        return size;
    }

    @SuppressWarnings("unchecked")
    V get(long key) {
        int slot = slot(key);
        Object v;
        while ((v = values[slot]) != null) {
            if (keys[slot] == key) {
                return (V) v;
            }
            slot = (slot + 1) & mask;
        }
        return null;
    }

    void put(long key, V value) {
        if (value == null) {
            throw new IllegalArgumentException("null values are not stored; remove the key instead");
        }
        int slot = slot(key);
        while (values[slot] != null) {
            if (keys[slot] == key) {
                values[slot] = value;
                return;
            }
            slot = (slot + 1) & mask;
        }
        keys[slot] = key;
        values[slot] = value;
        if (++size * 2 > keys.length) {
            grow();
        }
    }

    void remove(long key) {
        int slot = slot(key);
        while (values[slot] != null) {
            if (keys[slot] == key) {
                values[slot] = null;
                size--;
                shiftBack(slot);
                return;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** Moves later entries of the probe run into the hole so every key stays reachable. */
    private void shiftBack(int hole) {
        int slot = (hole + 1) & mask;
        while (values[slot] != null) {
            int home = slot(keys[slot]);
            boolean movable = hole <= slot ? (home <= hole || home > slot) : (home <= hole && home > slot);
            if (movable) {
                keys[hole] = keys[slot];
                values[hole] = values[slot];
                values[slot] = null;
                hole = slot;
            }
            slot = (slot + 1) & mask;
        }
    }

    @SuppressWarnings("unchecked")
    private void grow() {
        long[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new Object[oldValues.length * 2];
        mask = keys.length - 1;
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldValues[i] != null) {
                put(oldKeys[i], (V) oldValues[i]);
            }
        }
    }

    @SuppressWarnings("unchecked")
    void forEachValue(java.util.function.Consumer<V> action) {
        for (Object v : Arrays.copyOf(values, values.length)) {
            if (v != null) {
                action.accept((V) v);
            }
        }
    }

    private int slot(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
