package org.gridstat.core.management;

/**
 * A C37.118.2-2011 STAT word and its fields, so that an operator reads the bits without a table.
 *
 * @param word            the 16-bit word
 * @param dataError       bits 15-14: 0 good, 1 PMU error, 2 test mode or absent data, 3 PMU error (do not use)
 * @param syncError       bit 13: the PMU lost time synchronisation
 * @param sortedByArrival bit 12: data sorted by arrival rather than timestamp
 * @param trigger         bit 11: a trigger was detected
 * @param configChange    bit 10: the configuration changes within a minute
 * @param dataModified    bit 9: the data was modified by a post-processing step
 * @param pmuTimeQuality  bits 8-6: the PMU's time quality (0 not used, 1..7 ever larger worst-case errors)
 * @param unlockedTime    bits 5-4: how long the clock has been unlocked (0 locked or under 10 s ... 3 over 1,000 s)
 * @param triggerReason   bits 3-0
 */
public record StatDocument(Integer word, Integer dataError, Boolean syncError, Boolean sortedByArrival, Boolean trigger,
                           Boolean configChange, Boolean dataModified, Integer pmuTimeQuality, Integer unlockedTime,
                           Integer triggerReason) {
    /** A word decoded. */
    public static StatDocument of(int word) {
        int w = word & 0xFFFF;
        return new StatDocument(w, (w >>> 14) & 3, (w & 1 << 13) != 0, (w & 1 << 12) != 0, (w & 1 << 11) != 0,
                (w & 1 << 10) != 0, (w & 1 << 9) != 0, (w >>> 6) & 7, (w >>> 4) & 3, w & 0x0F);
    }
}
