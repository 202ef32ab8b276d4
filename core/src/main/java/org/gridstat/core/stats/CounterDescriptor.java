package org.gridstat.core.stats;

/**
 * One counter described once: the enum constant that is its index in a {@link CounterArray}, the
 * key under which snapshots, control-channel reports and the management API name it, and what it
 * counts. Enums of counters implement this, so adding a counter is one line.
 */
public interface CounterDescriptor {
    /** The counter's index in its array: the enum constant's ordinal. */
    int ordinal();

    /** The enum constant's name, in upper snake case. */
    String name();

    /** The counter's name in reports and APIs: its constant's name in lower camel case. */
    default String key() {
        StringBuilder b = new StringBuilder();
        boolean upper = false;
        for (char c : name().toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                b.append(upper ? c : Character.toLowerCase(c));
                upper = false;
            }
        }
        return b.toString();
    }

    /** What it counts, for operators. */
    String description();
}
