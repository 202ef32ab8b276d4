package org.gridstat.core.sched;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.wire.WireFormat;

/**
 * Drives a {@link LinkScheduler} on simulated time: sources offer events at their instants, the
 * link sends whenever the scheduler lets it, each event in a datagram of its own (its IP and UDP
 * headers charged to the link, as a pump charges a lone event's), and every event's fate is recorded.
 */
final class SimulatedLink {
    static final long MS = 1_000_000L;
    static final long S = 1_000_000_000L;

    /**
     * A simulated event: which flow, its sequence in the flow, when it arrived, its hop deadline
     * (the EDF key) and its expiry (the last departure that still meets its end-to-end deadline).
     */
    record Ev(int flow, long seq, long arrival, long deadline, long expiry, int bytes, boolean control) {
    }

    record Departure(Ev event, long at) {
    }

    /** An event the scheduler gave back, and the simulated time at which it did. */
    record Dropped(Ev event, long at) {
    }

    private record Source(int slot, long start, long period, long end, int bytes, long budget, long expiryBudget) {
    }

    private record Pending(long at, Source source, long seq) {
    }

    final LinkScheduler<Ev> scheduler;
    final List<Departure> departures = new ArrayList<>();
    final List<Dropped> released = new ArrayList<>();
    final List<Ev> refused = new ArrayList<>();
    private final List<Source> sources = new ArrayList<>();
    private final List<Ev> oneShots = new ArrayList<>();
    int maxBacklog;
    /** Simulated time: where {@link #run} is, or where a test that calls the scheduler itself sets it. */
    long now;

    SimulatedLink(LinkSpec link, int maxFlows) {
        this.scheduler = new LinkScheduler<>(link, maxFlows, e -> released.add(new Dropped(e, now)),
                new EstimatorSettings(S, 1.0), 0);
    }

    int flow(long id, ServiceClass c, long assured, long ceiling, int buffer) {
        return scheduler.addFlow(FlowSpec.of(id, c, assured, 0, ceiling, buffer, ""), 0);
    }

    /**
     * A periodic source: an event of {@code bytes} every {@code period} from {@code start} until
     * before {@code end}, due to leave by its arrival plus {@code deadlineBudget}, and expiring then too.
     */
    void periodic(int slot, long start, long period, long end, int bytes, long deadlineBudget) {
        periodic(slot, start, period, end, bytes, deadlineBudget, deadlineBudget);
    }

    /** A periodic source whose events expire {@code expiryBudget} after arrival, later than their hop deadline. */
    void periodic(int slot, long start, long period, long end, int bytes, long deadlineBudget, long expiryBudget) {
        sources.add(new Source(slot, start, period, end, bytes, deadlineBudget, expiryBudget));
    }

    /** Offers one event at a given instant; it expires at its hop deadline. */
    void at(long when, int slot, long seq, long deadline, int bytes) {
        at(when, slot, seq, deadline, deadline, bytes);
    }

    void at(long when, int slot, long seq, long deadline, long expiry, int bytes) {
        oneShots.add(new Ev(slot, seq, when, deadline, expiry, bytes, false));
    }

    void controlAt(long when, long seq, int bytes) {
        oneShots.add(new Ev(-1, seq, when, Long.MAX_VALUE, Long.MAX_VALUE, bytes, true));
    }

    /** Runs until {@code end}, then drains nothing further. */
    void run(long end) {
        PriorityQueue<Pending> arrivals = new PriorityQueue<>((a, b) -> Long.compare(a.at, b.at));
        for (Source s : sources) {
            arrivals.add(new Pending(s.start, s, 0));
        }
        // Stable: events offered at the same instant arrive in the order they were offered.
        java.util.ArrayDeque<Ev> shots = new java.util.ArrayDeque<>(
                oneShots.stream().sorted(java.util.Comparator.comparingLong(Ev::arrival)).toList());
        now = 0;
        while (now <= end) {
            while (!shots.isEmpty() && shots.peek().arrival() <= now) {
                Ev e = shots.poll();
                boolean ok = e.control() ? scheduler.enqueueControl(e, e.bytes(), now)
                        : scheduler.enqueue(e.flow(), e, e.bytes(), e.deadline(), e.expiry(), now);
                if (!ok) {
                    refused.add(e);
                }
            }
            while (!arrivals.isEmpty() && arrivals.peek().at <= now) {
                Pending p = arrivals.poll();
                Source s = p.source;
                long deadline = s.budget == Long.MAX_VALUE ? Long.MAX_VALUE : p.at + s.budget;
                long expiry = s.expiryBudget == Long.MAX_VALUE ? Long.MAX_VALUE : p.at + s.expiryBudget;
                Ev e = new Ev(s.slot, p.seq, p.at, deadline, expiry, s.bytes, false);
                if (!scheduler.enqueue(s.slot, e, s.bytes, deadline, expiry, now)) {
                    refused.add(e);
                }
                if (p.at + s.period < s.end) {
                    arrivals.add(new Pending(p.at + s.period, s, p.seq + 1));
                }
            }
            maxBacklog = Math.max(maxBacklog, scheduler.backlog());
            Ev sent;
            while ((sent = scheduler.dequeue(now)) != null) {
                scheduler.chargeDatagram(WireFormat.DATAGRAM_OVERHEAD, 1, now);
                departures.add(new Departure(sent, now));
            }
            long next = scheduler.nextWakeNanos(now);
            if (!arrivals.isEmpty()) {
                next = Math.min(next, arrivals.peek().at);
            }
            if (!shots.isEmpty()) {
                next = Math.min(next, shots.peek().arrival());
            }
            if (next == Long.MAX_VALUE) {
                break;
            }
            now = Math.max(now + 1, next);
        }
    }

    List<Departure> departuresOf(int slot) {
        return departures.stream().filter(d -> d.event().flow() == slot).toList();
    }

    /** Bytes a flow's events took on the wire in [from, to): each frame and its datagram's IP and UDP headers. */
    long bytesSent(int slot, long from, long to) {
        return departures.stream().filter(d -> d.event().flow() == slot && d.at() >= from && d.at() < to)
                .mapToLong(d -> d.event().bytes() + WireFormat.DATAGRAM_OVERHEAD).sum();
    }
}
