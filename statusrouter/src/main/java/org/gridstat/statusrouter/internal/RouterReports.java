package org.gridstat.statusrouter.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.control.ControlMessage.RouterReport;
import org.gridstat.core.egress.LinkCounter;
import org.gridstat.core.sched.FlowStatistics;
import org.gridstat.core.sched.LinkStatistics;
import org.gridstat.core.sched.QueueStatistics;
import org.gridstat.core.stats.CounterSnapshot;
import org.gridstat.statusrouter.api.RouterCounters;

/**
 * A router's counters as the reports it sends its broker: its flows' samples, and totals, ingress
 * drops by reason and each out-link's figures, the out-links split over as many reports as they
 * need.
 */
final class RouterReports {
    private RouterReports() {
    }

    /**
     * The flow samples of a report: one per flow on each out-link that {@code reported} takes (the
     * broker's), with its reassignments from {@code reassignments}. The latency p99 is the queue's
     * period p99 (give counters that ended a period, {@link DataPlane#reportCounters}) in whole
     * microseconds, rounded up so a latency under a microsecond is not shown as none.
     */
    static List<ControlMessage.FlowSample> flowSamples(RouterCounters c, java.util.function.LongPredicate reported,
                                                       java.util.function.LongUnaryOperator reassignments) {
        List<ControlMessage.FlowSample> samples = new ArrayList<>();
        for (LinkStatistics link : c.links().values()) {
            for (FlowStatistics f : link.flows()) {
                if (reported.test(f.flowId())) {
                    QueueStatistics q = f.queue();
                    samples.add(new ControlMessage.FlowSample(f.flowId(), q.departures(), q.departureBytes(),
                            q.overflowDrops(), q.deadlineMisses(), q.backlog(), q.arrivalRate(), q.departureRate(),
                            q.demandRate(), f.assuredRate(), f.shortfall(), f.heldRateHz(),
                            micros(q.periodLatencyP99Nanos()), reassignments.applyAsLong(f.flowId())));
                }
            }
        }
        return samples;
    }

    /** Nanoseconds as whole microseconds, rounded up, within what a sample carries. */
    static long micros(long nanos) {
        return Math.min(ControlMessage.FlowSample.MAX_LATENCY_MICROS, (Math.max(0, nanos) + 999) / 1_000);
    }

    static List<RouterReport> of(RouterCounters c, long nowMillis) {
        Map<String, Long> totals = new LinkedHashMap<>();
        totals.put("received", c.received());
        totals.put("batchesReceived", c.batchesReceived());
        totals.put("forwarded", c.forwarded());
        totals.put("datagramsSent", c.datagramsSent());
        totals.put("sendErrors", c.sendErrors());
        totals.put("handoffDrops", c.handoffDrops());
        totals.put("emulationLost", c.emulationLost());
        totals.putAll(c.engine().all().byKey());
        Map<String, Long> drops = new LinkedHashMap<>();
        c.dropped().forEach((reason, n) -> drops.put(reason.name(), n));
        List<RouterReport> out = new ArrayList<>();
        long unnamed = c.links().keySet().stream()
                .filter(n -> n.getBytes(StandardCharsets.UTF_8).length > RouterReport.MAX_LINK_NAME).count();
        if (unnamed > 0) {
            totals.put("linksNotReported", unnamed); // their names are too long to report
        }
        Map<String, Map<String, Long>> links = new LinkedHashMap<>();
        for (Map.Entry<String, LinkStatistics> e : c.links().entrySet()) {
            if (e.getKey().getBytes(StandardCharsets.UTF_8).length > RouterReport.MAX_LINK_NAME) {
                continue;
            }
            links.put(e.getKey(), figures(e.getValue(), c.linkCounters().get(e.getKey())));
            if (links.size() == RouterReport.MAX_LINKS) {
                out.add(new RouterReport(nowMillis, totals, drops, links));
                links = new LinkedHashMap<>();
            }
        }
        if (!links.isEmpty() || out.isEmpty()) {
            out.add(new RouterReport(nowMillis, totals, drops, links));
        }
        return out;
    }

    /** One out-link's figures: what its socket sent, and the sums over its flows' queues. */
    private static Map<String, Long> figures(LinkStatistics link, CounterSnapshot<LinkCounter> sent) {
        Map<String, Long> m = new LinkedHashMap<>();
        if (sent != null) {
            m.put("eventsSent", sent.get(LinkCounter.SENT));
            m.put("datagramsSent", sent.get(LinkCounter.DATAGRAMS));
            m.put("sendErrors", sent.get(LinkCounter.SEND_ERRORS));
            m.put("emulationLost", sent.get(LinkCounter.EMULATION_LOST));
            m.put("delayLineFull", sent.get(LinkCounter.DELAY_LINE_FULL));
        }
        long arrivals = 0;
        long arrivalBytes = 0;
        long bytes = 0;
        long overflow = 0;
        long missed = 0;
        long backlog = 0;
        for (FlowStatistics f : link.flows()) {
            QueueStatistics q = f.queue();
            arrivals += q.arrivals();
            arrivalBytes += q.arrivalBytes();
            bytes += q.departureBytes();
            overflow += q.overflowDrops();
            missed += q.deadlineMisses();
            backlog += q.backlog();
        }
        m.put("bytesSent", bytes);
        m.put("queued", arrivals);
        m.put("queuedBytes", arrivalBytes);
        m.put("overflowDrops", overflow);
        m.put("deadlineMisses", missed);
        m.put("backlog", backlog);
        m.put("flows", (long) link.flows().size());
        return m;
    }
}
