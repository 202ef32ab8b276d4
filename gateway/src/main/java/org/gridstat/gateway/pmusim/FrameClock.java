package org.gridstat.gateway.pmusim;

/**
 * The UTC grid of a frame rate: instant {@code n} is frame {@code n mod rate} of second
 * {@code n / rate}, at FRACSEC {@code k × TIME_BASE / rate}. Instants are numbered from the epoch
 * so that comparing and skipping them is integer arithmetic; their epoch time in nanoseconds is
 * rounded up, so a frame is never due before its instant.
 */
public final class FrameClock {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final int framesPerSecond;
    private final int countsPerFrame;

    /** @param timeBase FRACSEC counts per second, a multiple of {@code framesPerSecond} */
    public FrameClock(int framesPerSecond, int timeBase) {
        if (framesPerSecond < 1 || timeBase % framesPerSecond != 0) {
            throw new IllegalArgumentException("TIME_BASE " + timeBase + " is not a multiple of " + framesPerSecond + " frames/s");
        }
        this.framesPerSecond = framesPerSecond;
        this.countsPerFrame = timeBase / framesPerSecond;
    }

    /** The first instant at or after the epoch time. */
    public long instantAtOrAfter(long epochNanos) {
        long n = instantAtOrBefore(epochNanos);
        return nanosOf(n) < epochNanos ? n + 1 : n;
    }

    /** The last instant at or before the epoch time. */
    public long instantAtOrBefore(long epochNanos) {
        long second = Math.floorDiv(epochNanos, NANOS_PER_SECOND);
        long within = Math.floorMod(epochNanos, NANOS_PER_SECOND);
        return second * framesPerSecond + within * framesPerSecond / NANOS_PER_SECOND;
    }

    /** The epoch time of the instant, rounded up to the nanosecond. */
    public long nanosOf(long instant) {
        long second = Math.floorDiv(instant, (long) framesPerSecond);
        long k = Math.floorMod(instant, (long) framesPerSecond);
        return second * NANOS_PER_SECOND + (k * NANOS_PER_SECOND + framesPerSecond - 1) / framesPerSecond;
    }

    public long soc(long instant) {
        return Math.floorDiv(instant, (long) framesPerSecond);
    }

    /** The FRACSEC fraction count of the instant. */
    public int fraction(long instant) {
        return (int) Math.floorMod(instant, (long) framesPerSecond) * countsPerFrame;
    }

    public int framesPerSecond() {
        return framesPerSecond;
    }
}
