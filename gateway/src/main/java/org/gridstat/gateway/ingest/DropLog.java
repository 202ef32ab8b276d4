package org.gridstat.gateway.ingest;

import java.util.EnumMap;
import java.util.Map;
import java.util.StringJoiner;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.slf4j.Logger;

/**
 * One log line per device and period for what it lost: the frames dropped since the last line,
 * by reason, so a flooding or broken device is named in the log without a line per frame.
 * Called on the device's thread; nothing is logged while nothing is dropped.
 */
final class DropLog {
    /** The counters that mean a frame or sample from the device was lost. */
    private static final DeviceCounter[] DROPS = {DeviceCounter.CONFIG_REFUSED, DeviceCounter.CONFIG_CHURN,
        DeviceCounter.DATA_WITHOUT_CONFIG, DeviceCounter.DATA_MISMATCH, DeviceCounter.DATA_FUTURE,
        DeviceCounter.DATA_STALE, DeviceCounter.DATA_REPEATED, DeviceCounter.DATA_FLOOD,
        DeviceCounter.SHAPING_DROPPED, DeviceCounter.UNPUBLISHABLE, DeviceCounter.FOREIGN_DATAGRAMS};

    private final String device;
    private final DeviceCounters counters;
    private final long periodNanos;
    private final Map<DeviceCounter, Long> seen = new EnumMap<>(DeviceCounter.class);
    private final Map<FrameReject, Long> seenRejects = new EnumMap<>(FrameReject.class);
    private long next;

    DropLog(String device, DeviceCounters counters, long periodNanos, long now) {
        this.device = device;
        this.counters = counters;
        this.periodNanos = periodNanos;
        this.next = now + periodNanos;
    }

    /** The line for the drops since the last one, or null if it is not time or nothing was dropped. */
    String poll(long now) {
        if (now - next < 0) {
            return null;
        }
        next = now + periodNanos;
        StringJoiner reasons = new StringJoiner(", ");
        long total = 0;
        for (DeviceCounter c : DROPS) {
            long n = counters.get(c) - seen.getOrDefault(c, 0L);
            if (n > 0) {
                reasons.add(c.name() + " " + n);
                total += n;
                seen.put(c, counters.get(c));
            }
        }
        for (FrameReject r : FrameReject.values()) {
            long n = counters.rejects(r) - seenRejects.getOrDefault(r, 0L);
            if (n > 0) {
                reasons.add(r.name() + " " + n);
                total += n;
                seenRejects.put(r, counters.rejects(r));
            }
        }
        if (total == 0) {
            return null;
        }
        return "device " + device + ": dropped " + total + " in the last " + periodNanos / 1_000_000_000L + " s: " + reasons;
    }

    void poll(long now, Logger log) {
        String line = poll(now);
        if (line != null) {
            log.warn(line);
        }
    }
}
