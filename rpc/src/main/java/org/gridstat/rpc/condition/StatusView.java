package org.gridstat.rpc.condition;

/**
 * The latest sample of each status variable a server subscribes to, as conditions read it. Values
 * are doubles; source times are on the epoch nanosecond scale, stamped by the publisher.
 */
public interface StatusView {
    /** Whether a sample of the variable has arrived. */
    boolean known(String variable);

    /** The latest sample's value; meaningful only when {@link #known} is true. */
    double value(String variable);

    /** The latest sample's source time in epoch nanoseconds; meaningful only when {@link #known} is true. */
    long sourceTimeNanos(String variable);
}
