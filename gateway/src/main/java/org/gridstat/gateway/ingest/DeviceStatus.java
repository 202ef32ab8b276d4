package org.gridstat.gateway.ingest;

import java.util.Map;
import org.gridstat.gateway.c37118.frame.FrameReject;

/**
 * A device as the operator sees it.
 *
 * @param lastStat           the STAT words of the last data frame's PMUs ORed together, so any
 *                           PMU's error bit shows; -1 before the first frame
 * @param lastTimeQuality    the last frame's FRACSEC time-quality byte; -1 before the first frame
 * @param lastDataEpochNanos when the last data frame was accepted, by the gateway's epoch clock; 0 never
 */
public record DeviceStatus(String device, DeviceState state, int configCount, int pmus, int dataRate, int lastStat,
                           int lastTimeQuality, long lastDataEpochNanos, Map<DeviceCounter, Long> counters,
                           Map<FrameReject, Long> rejects) {
    public DeviceStatus {
        counters = Map.copyOf(counters);
        rejects = Map.copyOf(rejects);
    }

    /**
     * Good, alarm, stale or bad data at a glance: stale when no frame came for {@code staleNanos},
     * bad when the last frame's STAT flags invalid data, alarm on a lost sync or an unlocked clock.
     */
    public String health(long nowEpochNanos, long staleNanos) {
        if (state != DeviceState.STREAMING || lastStat < 0 || nowEpochNanos - lastDataEpochNanos > staleNanos) {
            return "stale";
        }
        if ((lastStat & 0xC000) != 0) {
            return "bad";
        }
        if ((lastStat & 0x2000) != 0 || (lastTimeQuality & 0x0F) != 0) {
            return "alarm";
        }
        return "good";
    }
}
