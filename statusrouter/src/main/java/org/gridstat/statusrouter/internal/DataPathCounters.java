package org.gridstat.statusrouter.internal;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridstat.core.sched.LinkStatistics;
import org.gridstat.core.stats.CounterArray;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.statusrouter.api.RouterCounters;

/** The counters of one ingress channel: written by its event loop only. */
final class DataPathCounters {
    private static final int RECEIVED = 0;
    private static final int HANDOFF_DROPS = 1;
    private static final int RECEIVE_ERRORS = 2;
    private static final int FIRST_REJECT = 3;

    private final CounterArray counters = new CounterArray(FIRST_REJECT + RejectReason.values().length);

    void received() {
        counters.increment(RECEIVED);
    }

    void handoffDropped() {
        counters.increment(HANDOFF_DROPS);
    }

    void receiveError() {
        counters.increment(RECEIVE_ERRORS);
    }

    void dropped(RejectReason reason) {
        counters.increment(FIRST_REJECT + reason.ordinal());
    }

    /** Sums the ingress counters with the data path's into one snapshot. */
    static RouterCounters snapshot(List<DataPathCounters> all, DataPath path) {
        long received = 0;
        long handoffDrops = 0;
        long forwarded = 0;
        long sendErrors = 0;
        long emulationLost = 0;
        Map<RejectReason, Long> dropped = new EnumMap<>(RejectReason.class);
        Map<String, LinkStatistics> links = new LinkedHashMap<>();
        for (EgressLink l : path.links) {
            forwarded += l.sent();
            sendErrors += l.sendErrors();
            emulationLost += l.emulationLost();
        }
        for (int i = 0; i < path.links.length; i++) {
            links.put(path.links[i].config.name, path.engine.statistics(i));
        }
        for (DataPathCounters c : all) {
            received += c.counters.get(RECEIVED);
            handoffDrops += c.counters.get(HANDOFF_DROPS);
            for (RejectReason r : RejectReason.values()) {
                long n = c.counters.get(FIRST_REJECT + r.ordinal());
                if (n != 0) {
                    dropped.merge(r, n, Long::sum);
                }
            }
        }
        return new RouterCounters(received, forwarded, sendErrors, dropped, handoffDrops, emulationLost,
                path.engine.counters(), links);
    }
}
