package org.gridstat.core.time;

/** The host's monotonic clock, {@link System#nanoTime()}. */
public final class SystemNanoClock implements NanoClock {
    public static final SystemNanoClock INSTANCE = new SystemNanoClock();

    private SystemNanoClock() {
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }
}
