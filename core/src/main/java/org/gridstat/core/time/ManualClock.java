package org.gridstat.core.time;

/** A clock that moves only when told: for tests and the simulator. */
public final class ManualClock implements Clock {
    private volatile long nanos;

    public ManualClock(long startNanos) {
        this.nanos = startNanos;
    }

    @Override
    public long nanos() {
        return nanos;
    }

    /** Moves time forward; time never goes back. */
    public void advance(long deltaNanos) {
        if (deltaNanos < 0) {
            throw new IllegalArgumentException("time cannot go back: advance by " + deltaNanos + " ns");
        }
        nanos += deltaNanos;
    }

    /** Sets the time to a later instant. */
    public void set(long newNanos) {
        if (newNanos < nanos) {
            throw new IllegalArgumentException("time cannot go back: " + newNanos + " < " + nanos);
        }
        nanos = newNanos;
    }
}
