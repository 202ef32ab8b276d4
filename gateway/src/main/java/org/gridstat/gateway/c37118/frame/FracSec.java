package org.gridstat.gateway.c37118.frame;

/**
 * The FRACSEC word: its top byte is the message time quality (bit 7 reserved, bit 6 leap second
 * direction, 1 = delete; bit 5 leap second occurred; bit 4 leap second pending; bits 3-0 the time
 * quality code, 0 locked to UTC ... 15 clock failure), its low 24 bits the fraction-of-second
 * count, in units of 1/TIME_BASE. A fraction of 0 is the top of the second, a valid time.
 */
public final class FracSec {
    public static final int FRACTION_MASK = 0x00FF_FFFF;

    private FracSec() {
    }

    public static int of(int timeQuality, int fraction) {
        return (timeQuality & 0xFF) << 24 | (fraction & FRACTION_MASK);
    }

    public static int qualityByte(boolean leapDelete, boolean leapOccurred, boolean leapPending, int qualityCode) {
        return (leapDelete ? 0x40 : 0) | (leapOccurred ? 0x20 : 0) | (leapPending ? 0x10 : 0) | (qualityCode & 0x0F);
    }

    public static int fraction(int fracSec) {
        return fracSec & FRACTION_MASK;
    }

    public static int timeQuality(int fracSec) {
        return fracSec >>> 24;
    }

    /** Bit 6: the pending or last leap second deletes a second (1) rather than adds one (0). */
    public static boolean leapDelete(int fracSec) {
        return (fracSec & 0x4000_0000) != 0;
    }

    public static boolean leapOccurred(int fracSec) {
        return (fracSec & 0x2000_0000) != 0;
    }

    public static boolean leapPending(int fracSec) {
        return (fracSec & 0x1000_0000) != 0;
    }

    public static int qualityCode(int fracSec) {
        return (fracSec >>> 24) & 0x0F;
    }

    /**
     * The fraction in nanoseconds for a TIME_BASE word (its low 24 bits are the subdivision). A
     * fraction at or above the subdivision yields a second or more, as the PMU sent it.
     */
    public static long nanos(int fracSec, int timeBase) {
        long subdivision = TimeBase.subdivision(timeBase);
        return subdivision == 0 ? 0 : fraction(fracSec) * 1_000_000_000L / subdivision;
    }
}
