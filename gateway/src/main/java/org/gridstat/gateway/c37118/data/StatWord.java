package org.gridstat.gateway.c37118.data;

/**
 * A PMU's STAT word in a data frame (2011 meanings; a 2005 PMU sends bits 15 and 14 as data
 * valid and PMU error, and bits 9-6 reserved): bits 15-14 data error (0 good, 1 PMU error, 2 test
 * mode or absent data, 3 PMU error, do not use), 13 PMU not synchronised, 12 sorted by arrival,
 * 11 trigger detected, 10 configuration change within a minute, 9 data modified, 8-6 PMU time
 * quality, 5-4 time since unlocked, 3-0 trigger reason.
 */
public final class StatWord {
    private StatWord() {
    }

    public static int of(int dataError, boolean syncError, boolean sortedByArrival, boolean trigger,
                         boolean configChange, boolean dataModified, int timeQuality, int unlockedTime, int triggerReason) {
        return (dataError & 3) << 14 | (syncError ? 1 << 13 : 0) | (sortedByArrival ? 1 << 12 : 0)
                | (trigger ? 1 << 11 : 0) | (configChange ? 1 << 10 : 0) | (dataModified ? 1 << 9 : 0)
                | (timeQuality & 7) << 6 | (unlockedTime & 3) << 4 | (triggerReason & 0x0F);
    }

    public static int dataError(int stat) {
        return (stat >>> 14) & 3;
    }

    public static boolean syncError(int stat) {
        return (stat & 1 << 13) != 0;
    }

    public static boolean sortedByArrival(int stat) {
        return (stat & 1 << 12) != 0;
    }

    public static boolean trigger(int stat) {
        return (stat & 1 << 11) != 0;
    }

    public static boolean configChange(int stat) {
        return (stat & 1 << 10) != 0;
    }

    public static boolean dataModified(int stat) {
        return (stat & 1 << 9) != 0;
    }

    public static int timeQuality(int stat) {
        return (stat >>> 6) & 7;
    }

    public static int unlockedTime(int stat) {
        return (stat >>> 4) & 3;
    }

    public static int triggerReason(int stat) {
        return stat & 0x0F;
    }
}
