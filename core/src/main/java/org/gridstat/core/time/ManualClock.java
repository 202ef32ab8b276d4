package org.gridstat.core.time;

/**
 * Both clocks of a data path, moved only when told: for tests and the simulator. {@link #advance}
 * moves the monotonic and the epoch reading together; {@link #stepWall} moves only the epoch
 * reading, either way, as an NTP step does to a host.
 */
public final class ManualClock implements Clock, NanoClock {
    private volatile long mono;
    private volatile long wallOffset;

    /** A clock whose epoch reading starts at {@code startNanos}, its monotonic reading at the same value. */
    public ManualClock(long startNanos) {
        this.mono = startNanos;
    }

    @Override
    public long nanos() {
        return mono + wallOffset;
    }

    @Override
    public long nanoTime() {
        return mono;
    }

    /** Moves time forward; time never goes back. */
    public void advance(long deltaNanos) {
        if (deltaNanos < 0) {
            throw new IllegalArgumentException("time cannot go back: advance by " + deltaNanos + " ns");
        }
        mono += deltaNanos;
    }

    /** Moves time forward until the epoch reading is {@code newNanos}. */
    public void set(long newNanos) {
        long now = nanos();
        if (newNanos < now) {
            throw new IllegalArgumentException("time cannot go back: " + newNanos + " < " + now);
        }
        mono += newNanos - now;
    }

    /** Steps the epoch reading by {@code deltaNanos} (negative: back) without moving monotonic time. */
    public void stepWall(long deltaNanos) {
        wallOffset += deltaNanos;
    }
}
