package org.gridstat.core.management;

import java.util.List;
import java.util.Map;

/**
 * One device (PMU or PDC) a phasor gateway reads, as of the gateway's report.
 *
 * @param name          the device's name in the gateway, unique there
 * @param state         where its session stands: one of {@link #STATES}
 * @param health        the data at a glance: one of {@link #HEALTHS}
 * @param configCount   the CFGCNT of the configuration in force; absent before the first one
 * @param pmus          the PMUs its configuration carries (0 before the first one)
 * @param dataRateHz    the configuration's DATA_RATE as C37.118 gives it: frames a second, or a
 *                      negative number of seconds per frame; 0 before the first configuration
 * @param stat          the STAT words of the last data frame's PMUs ORed together, decoded;
 *                      absent before the first data frame
 * @param timeQuality   the last data frame's time quality; absent before the first data frame
 * @param lastDataAgeMs how long before the report the last data frame was accepted; absent if none was
 * @param counters      the session's counters by name, those above zero only (absent: 0)
 * @param rejects       the frames and bytes the framer refused, by reason, those above zero only
 */
public record DeviceDocument(String name, String state, String health, Integer configCount, Integer pmus,
                             Integer dataRateHz, StatDocument stat, TimeQualityDocument timeQuality,
                             Long lastDataAgeMs, Map<String, Long> counters, Map<String, Long> rejects) {
    /** The session states a gateway reports. */
    public static final List<String> STATES = List.of("DISCONNECTED", "CONNECTING", "AWAITING_CONFIG", "STREAMING");
    /**
     * Good data; an alarm (lost synchronisation or a clock not locked to UTC); stale (no data
     * lately); bad (the PMU flags its data as erroneous).
     */
    public static final List<String> HEALTHS = List.of("good", "alarm", "stale", "bad");
}
