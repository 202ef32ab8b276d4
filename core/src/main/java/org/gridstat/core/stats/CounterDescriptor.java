package org.gridstat.core.stats;

/**
 * One counter described once: the enum constant that is its index in a {@link CounterArray}, the
 * key under which snapshots, control-channel reports and the management API name it, and what it
 * counts. Enums of counters implement this, so adding a counter is one line.
 */
public interface CounterDescriptor {
    /** The counter's index in its array: the enum constant's ordinal. */
    int ordinal();

    /** The counter's name in reports and APIs (lower camel case). */
    String key();

    /** What it counts, for operators. */
    String description();
}
