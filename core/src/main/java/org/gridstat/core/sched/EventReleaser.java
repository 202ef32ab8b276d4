package org.gridstat.core.sched;

/** Gives back an event the scheduler drops (a pooled buffer to release, a simulated packet to count). */
@FunctionalInterface
public interface EventReleaser<E> {
    void release(E event);
}
