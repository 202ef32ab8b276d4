package org.gridstat.statusrouter.internal;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.gridstat.core.stats.CounterArray;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.statusrouter.api.RouterCounters;

/** The counters of one event loop's forwarding handler: written by that loop only. */
final class DataPathCounters {
    private static final int RECEIVED = 0;
    private static final int FORWARDED = 1;
    private static final int SEND_ERRORS = 2;
    private static final int FIRST_REJECT = 3;

    private final CounterArray counters = new CounterArray(FIRST_REJECT + RejectReason.values().length);

    void received() {
        counters.increment(RECEIVED);
    }

    void forwarded(int copies) {
        counters.add(FORWARDED, copies);
    }

    void sendError() {
        counters.increment(SEND_ERRORS);
    }

    void dropped(RejectReason reason) {
        counters.increment(FIRST_REJECT + reason.ordinal());
    }

    /** Sums the counters of several handlers into one snapshot. */
    static RouterCounters snapshot(List<DataPathCounters> all) {
        long received = 0;
        long forwarded = 0;
        long sendErrors = 0;
        Map<RejectReason, Long> dropped = new EnumMap<>(RejectReason.class);
        for (DataPathCounters c : all) {
            received += c.counters.get(RECEIVED);
            forwarded += c.counters.get(FORWARDED);
            sendErrors += c.counters.get(SEND_ERRORS);
            for (RejectReason r : RejectReason.values()) {
                long n = c.counters.get(FIRST_REJECT + r.ordinal());
                if (n != 0) {
                    dropped.merge(r, n, Long::sum);
                }
            }
        }
        return new RouterCounters(received, forwarded, sendErrors, dropped);
    }
}
