package org.gridstat.gateway.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridstat.core.management.DeviceDocument;
import org.gridstat.core.management.GatewayReportDocument;
import org.gridstat.core.management.StatDocument;
import org.gridstat.core.management.TimeQualityDocument;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.ingest.DeviceStatus;

/** A gateway's devices as the broker's device report carries them ({@code docs/management-api.md}). */
public final class DeviceReport {
    /** The shortest silence that makes a device's data stale, however fast it sends. */
    static final long MIN_STALE_NANOS = 1_000_000_000L;
    /** Frame periods without a data frame after which a device's data is stale. */
    static final int STALE_FRAMES = 3;

    private DeviceReport() {
    }

    public static GatewayReportDocument of(List<DeviceStatus> devices, long nowEpochNanos, int periodMs) {
        List<DeviceDocument> out = new ArrayList<>(devices.size());
        for (DeviceStatus d : devices) {
            out.add(device(d, nowEpochNanos));
        }
        return new GatewayReportDocument(periodMs, out);
    }

    static DeviceDocument device(DeviceStatus s, long nowEpochNanos) {
        boolean data = s.lastStat() >= 0;
        Map<String, Long> counters = new LinkedHashMap<>();
        s.counters().entrySet().stream().filter(e -> e.getValue() > 0).sorted(Map.Entry.comparingByKey())
                .forEach(e -> counters.put(e.getKey().name(), e.getValue()));
        Map<String, Long> rejects = new LinkedHashMap<>();
        s.rejects().entrySet().stream().filter(e -> e.getKey() != FrameReject.NONE && e.getValue() > 0)
                .sorted(Map.Entry.comparingByKey()).forEach(e -> rejects.put(e.getKey().name(), e.getValue()));
        return new DeviceDocument(s.device(), s.state().name(), s.health(nowEpochNanos, staleNanos(s.dataRate())),
                s.configCount() < 0 ? null : s.configCount(), s.pmus(), s.dataRate(),
                data ? StatDocument.of(s.lastStat()) : null,
                data && s.lastTimeQuality() >= 0 ? TimeQualityDocument.of(s.lastTimeQuality()) : null,
                s.lastDataEpochNanos() == 0 ? null : Math.max(0, nowEpochNanos - s.lastDataEpochNanos()) / 1_000_000,
                counters, rejects.isEmpty() ? null : rejects);
    }

    /**
     * How long without a data frame before a device's data is stale: three of its frame periods
     * (C37.118's DATA_RATE is frames a second, or if negative seconds a frame), at least a second,
     * so a 1 Hz device is not flagged between frames nor a 60 Hz one after a mere hiccup.
     */
    static long staleNanos(int dataRate) {
        long period = dataRate > 0 ? 1_000_000_000L / dataRate : dataRate < 0 ? -dataRate * 1_000_000_000L : 0;
        return Math.max(MIN_STALE_NANOS, STALE_FRAMES * period);
    }
}
