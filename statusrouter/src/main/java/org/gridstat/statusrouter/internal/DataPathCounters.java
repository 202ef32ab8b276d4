package org.gridstat.statusrouter.internal;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridstat.core.egress.LinkCounter;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.sched.LinkStatistics;
import org.gridstat.core.stats.CounterArray;
import org.gridstat.core.stats.CounterSnapshot;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.statusrouter.api.RouterCounters;

/** The counters of one ingress socket: written by its event loop only. */
final class DataPathCounters {
    private static final int FIRST_REJECT = IngressCounter.values().length;

    private final CounterArray counters = new CounterArray(FIRST_REJECT + RejectReason.values().length);

    void received() {
        counters.increment(IngressCounter.RECEIVED.ordinal());
    }

    void batchReceived() {
        counters.increment(IngressCounter.BATCHES.ordinal());
    }

    /** A buffer the kernel coalesced (UDP_GRO), split into its datagrams. */
    void coalesced() {
        counters.increment(IngressCounter.COALESCED.ordinal());
    }

    /** Buffers the kernel coalesced on this socket so far. */
    long coalescedBuffers() {
        return counters.get(IngressCounter.COALESCED.ordinal());
    }

    void handoffDropped() {
        counters.increment(IngressCounter.HANDOFF_DROPS.ordinal());
    }

    void receiveError() {
        counters.increment(IngressCounter.RECEIVE_ERRORS.ordinal());
    }

    void dropped(RejectReason reason) {
        counters.increment(FIRST_REJECT + reason.ordinal());
    }

    /** A frame the forwarding engine refused, by its code. */
    void refused(int code) {
        dropped(code == ForwardingEngine.SOURCE_TIME_AHEAD ? RejectReason.SOURCE_TIME_AHEAD
                : code == ForwardingEngine.SOURCE_TIME_STALE ? RejectReason.SOURCE_TIME_STALE
                : RejectReason.UNKNOWN_VARIABLE);
    }

    /** Sums the ingress counters with the data path's into one snapshot. */
    static RouterCounters snapshot(List<DataPathCounters> all, DataPath path) {
        return snapshot(all, path, false);
    }

    /**
     * Sums the ingress counters with the data path's into one snapshot; with {@code endPeriod} the
     * snapshot also ends the queues' latency period (a flow report's: see
     * {@link org.gridstat.core.sched.LinkScheduler#statistics(boolean)}).
     */
    static RouterCounters snapshot(List<DataPathCounters> all, DataPath path, boolean endPeriod) {
        long received = 0;
        long handoffDrops = 0;
        long forwarded = 0;
        long sendErrors = 0;
        long emulationLost = 0;
        long batches = 0;
        long datagrams = 0;
        Map<RejectReason, Long> dropped = new EnumMap<>(RejectReason.class);
        Map<String, LinkStatistics> links = new LinkedHashMap<>();
        Map<String, CounterSnapshot<LinkCounter>> linkCounters = new LinkedHashMap<>();
        for (int i = 0; i < path.links.length; i++) {
            CounterSnapshot<LinkCounter> c = path.agent.pump(i).counters();
            forwarded += c.get(LinkCounter.SENT);
            datagrams += c.get(LinkCounter.DATAGRAMS);
            sendErrors += c.get(LinkCounter.SEND_ERRORS);
            emulationLost += c.get(LinkCounter.EMULATION_LOST) + c.get(LinkCounter.DELAY_LINE_FULL);
            links.put(path.links[i].config.name, path.engine.statistics(i, endPeriod));
            linkCounters.put(path.links[i].config.name, c);
        }
        for (DataPathCounters c : all) {
            received += c.counters.get(IngressCounter.RECEIVED.ordinal());
            batches += c.counters.get(IngressCounter.BATCHES.ordinal());
            handoffDrops += c.counters.get(IngressCounter.HANDOFF_DROPS.ordinal());
            for (RejectReason r : RejectReason.values()) {
                long n = c.counters.get(FIRST_REJECT + r.ordinal());
                if (n != 0) {
                    dropped.merge(r, n, Long::sum);
                }
            }
        }
        return new RouterCounters(received, forwarded, sendErrors, dropped, handoffDrops, emulationLost,
                path.engine.counters(), links, batches, datagrams, linkCounters, path.decisions != null,
                path.decisions == null ? List.of() : path.decisions.snapshot());
    }
}
