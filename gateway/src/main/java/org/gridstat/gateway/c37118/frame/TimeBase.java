package org.gridstat.gateway.c37118.frame;

/**
 * The TIME_BASE word of a configuration: bits 31-24 are reserved for flags, bits 23-0 the number
 * of FRACSEC counts per second (up to 0xFFFFFF = 16,777,215).
 */
public final class TimeBase {
    public static final int MAX_SUBDIVISION = 0x00FF_FFFF;

    private TimeBase() {
    }

    public static int subdivision(int timeBase) {
        return timeBase & MAX_SUBDIVISION;
    }

    public static int flags(int timeBase) {
        return timeBase >>> 24;
    }
}
