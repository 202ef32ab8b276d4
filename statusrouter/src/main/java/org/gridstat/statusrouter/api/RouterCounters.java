package org.gridstat.statusrouter.api;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridstat.core.egress.LinkCounter;
import org.gridstat.core.forward.ForwardingCounters;
import org.gridstat.core.sched.LinkStatistics;
import org.gridstat.core.stats.CounterSnapshot;
import org.gridstat.core.wire.RejectReason;

/** A router's counters at one instant: ingress drops, egress totals, the engine and every out-link. */
public final class RouterCounters {
    private final long received;
    private final long forwarded;
    private final long sendErrors;
    private final Map<RejectReason, Long> dropped;
    private final long handoffDrops;
    private final long emulationLost;
    private final ForwardingCounters engine;
    private final Map<String, LinkStatistics> links;
    private final long batchesReceived;
    private final long datagramsSent;
    private final Map<String, CounterSnapshot<LinkCounter>> linkCounters;
    private final boolean congestionControl;
    private final List<CongestionDecision> recentDecisions;

    public RouterCounters(long received, long forwarded, long sendErrors, Map<RejectReason, Long> dropped,
                          long handoffDrops, long emulationLost, ForwardingCounters engine,
                          Map<String, LinkStatistics> links) {
        this(received, forwarded, sendErrors, dropped, handoffDrops, emulationLost, engine, links, 0, 0);
    }

    public RouterCounters(long received, long forwarded, long sendErrors, Map<RejectReason, Long> dropped,
                          long handoffDrops, long emulationLost, ForwardingCounters engine,
                          Map<String, LinkStatistics> links, long batchesReceived, long datagramsSent) {
        this(received, forwarded, sendErrors, dropped, handoffDrops, emulationLost, engine, links, batchesReceived,
                datagramsSent, Map.of());
    }

    /** With each out-link's own send counters ({@code linkCounters}, by link name). */
    public RouterCounters(long received, long forwarded, long sendErrors, Map<RejectReason, Long> dropped,
                          long handoffDrops, long emulationLost, ForwardingCounters engine,
                          Map<String, LinkStatistics> links, long batchesReceived, long datagramsSent,
                          Map<String, CounterSnapshot<LinkCounter>> linkCounters) {
        this(received, forwarded, sendErrors, dropped, handoffDrops, emulationLost, engine, links, batchesReceived,
                datagramsSent, linkCounters, false, List.of());
    }

    /**
     * With whether the out-links run congestion control and its most recent decisions, oldest
     * first.
     */
    public RouterCounters(long received, long forwarded, long sendErrors, Map<RejectReason, Long> dropped,
                          long handoffDrops, long emulationLost, ForwardingCounters engine,
                          Map<String, LinkStatistics> links, long batchesReceived, long datagramsSent,
                          Map<String, CounterSnapshot<LinkCounter>> linkCounters, boolean congestionControl,
                          List<CongestionDecision> recentDecisions) {
        this.congestionControl = congestionControl;
        this.recentDecisions = List.copyOf(recentDecisions);
        this.linkCounters = Collections.unmodifiableMap(new LinkedHashMap<>(linkCounters));
        this.batchesReceived = batchesReceived;
        this.datagramsSent = datagramsSent;
        this.received = received;
        this.forwarded = forwarded;
        this.sendErrors = sendErrors;
        EnumMap<RejectReason, Long> copy = new EnumMap<>(RejectReason.class);
        copy.putAll(dropped);
        this.dropped = Collections.unmodifiableMap(copy);
        this.handoffDrops = handoffDrops;
        this.emulationLost = emulationLost;
        this.engine = engine;
        this.links = Collections.unmodifiableMap(new LinkedHashMap<>(links));
    }

    /** Events that arrived on the data port, valid or not (each event of a batch; a datagram dropped unread as one). */
    public long received() {
        return received;
    }

    /** Datagrams that arrived as a batch of several events. */
    public long batchesReceived() {
        return batchesReceived;
    }

    /** Copies sent on out-links. */
    public long forwarded() {
        return forwarded;
    }

    /** Datagrams sent on out-links: a lone copy each, or a batch of several. */
    public long datagramsSent() {
        return datagramsSent;
    }

    /** Copies the operating system refused to send. */
    public long sendErrors() {
        return sendErrors;
    }

    /** Events (or datagrams dropped unread) dropped at ingress, by reason (reasons never seen are absent). */
    public Map<RejectReason, Long> dropped() {
        return dropped;
    }

    public long dropped(RejectReason reason) {
        return dropped.getOrDefault(reason, 0L);
    }

    public long droppedTotal() {
        return dropped.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Frames dropped because the data-path loop's hand-off queue was full (more than one event loop). */
    public long handoffDrops() {
        return handoffDrops;
    }

    /** Copies lost on emulated links (omission, outage, full delay line). */
    public long emulationLost() {
        return emulationLost;
    }

    /** Rate filtering, queueing and control-command counters. */
    public ForwardingCounters engine() {
        return engine;
    }

    /** Per out-link statistics, by link name: each flow and class. */
    public Map<String, LinkStatistics> links() {
        return links;
    }

    /** Per out-link send counters, by link name: copies and datagrams sent, send errors, emulation losses. */
    public Map<String, CounterSnapshot<LinkCounter>> linkCounters() {
        return linkCounters;
    }

    /** Whether the out-links run congestion control (the {@code congestion.control} setting). */
    public boolean congestionControl() {
        return congestionControl;
    }

    /**
     * Congestion control's most recent decisions on every out-link, oldest first (a bounded number:
     * older ones are forgotten); empty when it is off. The engine's counters count all of them
     * ({@code RATES_REASSIGNED}, {@code NEEDS_UNMET}, {@code NEEDS_MET}).
     */
    public List<CongestionDecision> recentDecisions() {
        return recentDecisions;
    }

    @Override
    public String toString() {
        StringBuilder perLink = new StringBuilder();
        for (Map.Entry<String, LinkStatistics> e : links.entrySet()) {
            long sent = 0;
            long overflow = 0;
            long missed = 0;
            long backlog = 0;
            for (org.gridstat.core.sched.FlowStatistics f : e.getValue().flows()) {
                sent += f.queue().departures();
                overflow += f.queue().overflowDrops();
                missed += f.queue().deadlineMisses();
                backlog += f.queue().backlog();
            }
            org.gridstat.core.sched.QueueStatistics hrt = e.getValue().serviceClass(org.gridstat.core.model.ServiceClass.HRT);
            perLink.append(" link ").append(e.getKey()).append("[sent=").append(sent).append(" overflow=").append(overflow)
                    .append(" deadlineMisses=").append(missed).append(" backlog=").append(backlog)
                    .append(" hrtHopP99Ns=").append(hrt.latencyP99Nanos()).append(" hrtHopMaxNs=").append(hrt.latencyMaxNanos())
                    .append(']');
        }
        return "received=" + received + " batchesReceived=" + batchesReceived + " forwarded=" + forwarded
                + " datagramsSent=" + datagramsSent + " sendErrors=" + sendErrors + " dropped=" + dropped
                + " handoffDrops=" + handoffDrops + " emulationLost=" + emulationLost + " engine[" + engine + "]"
                + (congestionControl ? " congestionControl=on recentDecisions=" + recentDecisions.size() : "") + perLink;
    }
}
