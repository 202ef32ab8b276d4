package org.gridstat.core.management;

/**
 * The time quality of a C37.118 frame (the top byte of FRACSEC), decoded.
 *
 * @param code         bits 3-0: 0 locked to UTC, 1..11 ever larger worst-case errors (1 ns ... 10 s), 15 clock failure
 * @param leapPending  bit 4: a leap second is pending
 * @param leapOccurred bit 5: a leap second occurred
 * @param leapDelete   bit 6: the leap second deletes a second rather than adds one
 */
public record TimeQualityDocument(Integer code, Boolean leapPending, Boolean leapOccurred, Boolean leapDelete) {
    /** A time-quality byte decoded (bit 7 is reserved and not shown). */
    public static TimeQualityDocument of(int qualityByte) {
        return new TimeQualityDocument(qualityByte & 0x0F, (qualityByte & 0x10) != 0, (qualityByte & 0x20) != 0,
                (qualityByte & 0x40) != 0);
    }
}
