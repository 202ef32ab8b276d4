package org.gridstat.gateway.ingest;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import org.gridstat.gateway.c37118.frame.FrameReject;

/**
 * A device session's counters and gauges. Written by the session's one thread, read by any
 * (the operator views): each value is published on its own, so a snapshot is a consistent
 * reading of each counter, not of all of them at one instant.
 */
public final class DeviceCounters {
    private final String device;
    private final AtomicLongArray counts = new AtomicLongArray(DeviceCounter.values().length);
    private final AtomicLongArray rejects = new AtomicLongArray(FrameReject.values().length);
    private volatile DeviceState state = DeviceState.DISCONNECTED;
    private volatile int lastStat = -1;
    private volatile int lastTimeQuality = -1;
    private volatile int configCount = -1;
    private volatile int pmus;
    private volatile int dataRate;
    private volatile long lastDataEpochNanos;

    public DeviceCounters(String device) {
        this.device = device;
    }

    void add(DeviceCounter c) {
        counts.incrementAndGet(c.ordinal());
    }

    void reject(FrameReject reason) {
        rejects.incrementAndGet(reason.ordinal());
        add(DeviceCounter.FRAMING_REJECTS);
    }

    void state(DeviceState s) {
        state = s;
    }

    void configuration(int configCount, int pmus, int dataRate) {
        this.configCount = configCount;
        this.pmus = pmus;
        this.dataRate = dataRate;
    }

    void lastData(int statOr, int timeQuality, long epochNanos) {
        lastStat = statOr;
        lastTimeQuality = timeQuality;
        lastDataEpochNanos = epochNanos;
    }

    public long get(DeviceCounter c) {
        return counts.get(c.ordinal());
    }

    public long rejects(FrameReject reason) {
        return rejects.get(reason.ordinal());
    }

    public DeviceState state() {
        return state;
    }

    /** A reading for the operator views. */
    public DeviceStatus snapshot() {
        Map<DeviceCounter, Long> c = new EnumMap<>(DeviceCounter.class);
        for (DeviceCounter k : DeviceCounter.values()) {
            c.put(k, counts.get(k.ordinal()));
        }
        Map<FrameReject, Long> r = new EnumMap<>(FrameReject.class);
        for (FrameReject k : FrameReject.values()) {
            long n = rejects.get(k.ordinal());
            if (n > 0) {
                r.put(k, n);
            }
        }
        return new DeviceStatus(device, state, configCount, pmus, dataRate, lastStat, lastTimeQuality,
                lastDataEpochNanos, c, r);
    }
}
