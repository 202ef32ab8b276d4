package org.gridstat.gateway.aggregate;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The meter server's counters, written by its I/O threads, read by any: each value is consistent
 * on its own, a snapshot is not one instant of all of them.
 */
public final class MeterCounters {
    private final AtomicLongArray counts = new AtomicLongArray(MeterCounter.values().length);
    private final AtomicLongArray rejects = new AtomicLongArray(DecodeOutcome.values().length);

    void add(MeterCounter c) {
        counts.incrementAndGet(c.ordinal());
    }

    void add(MeterCounter c, long n) {
        if (n != 0) {
            counts.addAndGet(c.ordinal(), n);
        }
    }

    void reject(DecodeOutcome reason) {
        rejects.incrementAndGet(reason.ordinal());
        add(MeterCounter.RECORDS_REJECTED);
    }

    void offered(OfferOutcome o) {
        add(switch (o) {
            case ACCEPTED -> MeterCounter.READINGS_ACCEPTED;
            case LATE -> MeterCounter.READINGS_LATE;
            case AHEAD -> MeterCounter.READINGS_AHEAD;
            case REPEATED -> MeterCounter.READINGS_REPEATED;
            case FORGOTTEN -> MeterCounter.READINGS_FORGOTTEN;
        });
    }

    public long get(MeterCounter c) {
        return counts.get(c.ordinal());
    }

    public long rejects(DecodeOutcome reason) {
        return rejects.get(reason.ordinal());
    }

    /** Every counter, and the reject reasons that occurred, for logs and views. */
    public Map<String, Long> snapshot() {
        Map<String, Long> m = new java.util.LinkedHashMap<>();
        for (MeterCounter c : MeterCounter.values()) {
            m.put(c.name(), get(c));
        }
        Map<DecodeOutcome, Long> r = new EnumMap<>(DecodeOutcome.class);
        for (DecodeOutcome o : DecodeOutcome.values()) {
            if (rejects(o) > 0) {
                r.put(o, rejects(o));
            }
        }
        r.forEach((k, v) -> m.put("REJECTED_" + k.name(), v));
        return m;
    }
}
