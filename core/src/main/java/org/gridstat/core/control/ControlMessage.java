package org.gridstat.core.control;

import java.util.Arrays;
import java.util.Objects;
import org.gridstat.core.model.Endpoint;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.wire.WireFormat;

/** What brokers and routers say to each other on the control channel. */
public sealed interface ControlMessage {
    /** A router introduces itself, first thing on every connection; the broker answers with its state. */
    record Hello(String routerId) implements ControlMessage {
        public Hello {
            Objects.requireNonNull(routerId, "router id");
        }
    }

    /**
     * Install or change a flow on the router's out-link named {@code link}; idempotent by
     * {@code version}. See {@link org.gridstat.core.forward.FlowEntry} for the fields' meaning.
     */
    record InstallFlow(long version, long variableId, String link, FlowSpec spec, long[] intervalsNanos,
                       long publisherIntervalNanos, long downstreamBudgetNanos, long minRestDelayNanos,
                       java.util.List<Upstream> upstream)
            implements ControlMessage {
        /** The most previous hops one flow names. */
        public static final int MAX_UPSTREAM = 8;

        public InstallFlow {
            Objects.requireNonNull(link, "link");
            Objects.requireNonNull(spec, "spec");
            if (minRestDelayNanos < 0) {
                throw new IllegalArgumentException("flow " + spec.flowId() + ": least rest-of-path delay must not be negative");
            }
            intervalsNanos = intervalsNanos.clone();
            upstream = java.util.List.copyOf(new java.util.LinkedHashSet<>(upstream));
            if (upstream.size() > MAX_UPSTREAM) {
                throw new IllegalArgumentException("flow " + spec.flowId() + ": " + upstream.size()
                        + " previous hops, at most " + MAX_UPSTREAM);
            }
        }

        /** A flow whose previous hops are not known: congestion notices for it go no further upstream. */
        public InstallFlow(long version, long variableId, String link, FlowSpec spec, long[] intervalsNanos,
                           long publisherIntervalNanos, long downstreamBudgetNanos, long minRestDelayNanos) {
            this(version, variableId, link, spec, intervalsNanos, publisherIntervalNanos, downstreamBudgetNanos,
                    minRestDelayNanos, java.util.List.of());
        }

        /** The flow as the router holds it, on its out-link number {@code outLink} (the one named {@link #link}). */
        public org.gridstat.core.forward.FlowEntry entry(int outLink) {
            return entry(outLink, new int[0]);
        }

        /** As {@link #entry(int)}, with {@link #upstream} numbered by the router ({@code FlowEntry.PUBLISHER}: the publisher). */
        public org.gridstat.core.forward.FlowEntry entry(int outLink, int[] upstreamHops) {
            return new org.gridstat.core.forward.FlowEntry(version, variableId, outLink, spec, intervalsNanos,
                    publisherIntervalNanos, downstreamBudgetNanos, minRestDelayNanos, upstreamHops);
        }

        /** A flow whose rest of path has no known least delay (0). */
        public InstallFlow(long version, long variableId, String link, FlowSpec spec, long[] intervalsNanos,
                           long publisherIntervalNanos, long downstreamBudgetNanos) {
            this(version, variableId, link, spec, intervalsNanos, publisherIntervalNanos, downstreamBudgetNanos, 0);
        }

        @Override
        public long[] intervalsNanos() {
            return intervalsNanos.clone();
        }

        /** The same flow content under another version. */
        public InstallFlow withVersion(long newVersion) {
            return new InstallFlow(newVersion, variableId, link, spec, intervalsNanos, publisherIntervalNanos,
                    downstreamBudgetNanos, minRestDelayNanos, upstream);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof InstallFlow f && f.version == version && f.variableId == variableId && f.link.equals(link)
                    && f.spec.equals(spec) && Arrays.equals(f.intervalsNanos, intervalsNanos)
                    && f.publisherIntervalNanos == publisherIntervalNanos && f.downstreamBudgetNanos == downstreamBudgetNanos
                    && f.minRestDelayNanos == minRestDelayNanos && f.upstream.equals(upstream);
        }

        @Override
        public int hashCode() {
            return Objects.hash(version, variableId, link, spec, Arrays.hashCode(intervalsNanos));
        }
    }

    /**
     * A hop a flow's events come from: the router of that id, with its data address where the
     * broker's topology gives it (its congestion notices go to that address, on TCP), or, for the
     * empty id, the publisher: the router holding the flow is its first hop.
     *
     * @param address the router's data address, or {@code null}: not known (and always for the publisher)
     */
    record Upstream(String router, Endpoint address) {
        public static final Upstream PUBLISHER = new Upstream("", null);

        public Upstream {
            Objects.requireNonNull(router, "router id");
            if (router.isEmpty() && address != null) {
                throw new IllegalArgumentException("the publisher has no router address");
            }
        }

        public boolean isPublisher() {
            return router.isEmpty();
        }

        @Override
        public String toString() {
            return isPublisher() ? "publisher" : address == null ? router : router + "@" + address;
        }
    }

    /**
     * Opens a congestion-notice connection: a router introduces itself by its id (its neighbours'
     * out-links are named by it), a publisher by the empty id. First on every such connection.
     */
    record NoticePeer(String routerId) implements ControlMessage {
        public NoticePeer {
            Objects.requireNonNull(routerId, "router id");
        }
    }

    /** A publisher names the variables it publishes, so their first router sends it their notices. */
    record Publishes(long[] variableIds) implements ControlMessage {
        /** The most variables one message names; a publisher with more sends several. */
        public static final int MAX_VARIABLES = 1024;

        public Publishes {
            if (variableIds.length > MAX_VARIABLES) {
                throw new IllegalArgumentException(variableIds.length + " variables, at most " + MAX_VARIABLES);
            }
            variableIds = variableIds.clone();
            for (long v : variableIds) {
                if (v == 0) {
                    throw new IllegalArgumentException("variable id 0 is reserved");
                }
            }
        }

        @Override
        public long[] variableIds() {
            return variableIds.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Publishes p && Arrays.equals(p.variableIds, variableIds);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(variableIds);
        }
    }

    /**
     * A congestion notice: the sender wants at most {@code rateHz} samples per second of the
     * variable from the receiver, on the receiver's sample grid of that rate (0: no limit any more).
     * State, not a delta: a repeated or resent notice changes nothing. Acknowledged.
     */
    record CongestionNotice(long variableId, int rateHz) implements ControlMessage {
        /** The highest rate a notice may name, samples per second. */
        public static final int MAX_RATE_HZ = 1_000_000;

        public CongestionNotice {
            if (variableId == 0) {
                throw new IllegalArgumentException("variable id 0 is reserved");
            }
            if (rateHz < 0 || rateHz > MAX_RATE_HZ) {
                throw new IllegalArgumentException("advised rate " + rateHz + " Hz, 0.." + MAX_RATE_HZ + " allowed");
            }
        }
    }

    /** Remove a flow; idempotent by version. */
    record RemoveFlow(long flowId, long version) implements ControlMessage {
    }

    /** The broker has sent its whole state for this router; flows not installed since are stale. */
    record SyncEnd() implements ControlMessage {
    }

    /**
     * Either end is alive: sent when it has sent nothing else for a heartbeat period, so a peer
     * that hears nothing for the heartbeat timeout can tell a frozen or cut-off peer from a quiet
     * one. Not acknowledged.
     */
    record Heartbeat() implements ControlMessage {
    }

    /** The message with this sequence number was applied. */
    record Ack(long sequence) implements ControlMessage {
    }

    /** The message with this sequence number was refused, and why. */
    record Nack(long sequence, String reason) implements ControlMessage {
        public Nack {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * A router's periodic statistics of the flows the broker installed in it: at a time (ms since
     * 1970) and per flow. Not acknowledged; the next report supersedes it.
     */
    record FlowReport(long timeMillis, java.util.List<FlowSample> flows) implements ControlMessage {
        /** Most samples in one report; a router with more flows sends several. */
        public static final int MAX_SAMPLES = 512;

        public FlowReport {
            flows = java.util.List.copyOf(flows);
            if (flows.size() > MAX_SAMPLES) {
                throw new IllegalArgumentException(flows.size() + " samples in one report, at most " + MAX_SAMPLES);
            }
        }
    }

    /**
     * One flow's counters since it was installed (events and bytes sent, overflow drops, deadline
     * misses), its backlog, its EWMA arrival and departure rates in bytes per second, its demand on
     * the wire as congestion control estimates it (bytes per second), the assured rate in force (the
     * reservation, or what congestion control moved it to) and how much more its demand needs than
     * congestion control could find on the link (0: nothing short; above 0: an alarm for the broker),
     * both in bytes per second; the rate a congestion hold lets through; the 99th percentile of the
     * flow's queueing at this hop (arrival to departure) over the report's period, and how many of
     * congestion control's reassignments moved the flow's assured rate since the router's data path
     * started.
     *
     * @param heldRateHz        the samples per second congestion control holds the flow to; 0: none
     * @param latencyP99Micros  the 99th percentile of the time the flow's events spent at this hop,
     *                          from arrival to departure, in whole microseconds (rounded up), over the
     *                          events that left since the router's previous report; 0: none left.
     *                          Queueing in the router's own scheduler only: a kernel-shaped link's
     *                          queueing is the kernel's and is not in it. At most
     *                          {@link #MAX_LATENCY_MICROS}
     * @param reassignments     congestion control's decisions that moved the flow's assured rate
     *                          (lent, returned, granted, released), counted since the router's data
     *                          path started; alarms (a need unmet, met again) are not reassignments
     */
    record FlowSample(long flowId, long eventsSent, long bytesSent, long overflowDrops, long deadlineMisses, long backlog,
                      double arrivalRate, double departureRate, double demand, long assuredRate, long shortfall,
                      int heldRateHz, long latencyP99Micros, long reassignments) {
        /** The largest latency a sample carries: a minute, far above any queueing a router keeps (its histograms stop at 10 s). */
        public static final long MAX_LATENCY_MICROS = 60_000_000L;

        /** A sample of a flow no congestion hold is on, with no latency or reassignment figures. */
        public FlowSample(long flowId, long eventsSent, long bytesSent, long overflowDrops, long deadlineMisses, long backlog,
                          double arrivalRate, double departureRate, double demand, long assuredRate, long shortfall) {
            this(flowId, eventsSent, bytesSent, overflowDrops, deadlineMisses, backlog, arrivalRate, departureRate, demand,
                    assuredRate, shortfall, 0);
        }

        /** A sample with no latency or reassignment figures (0 each). */
        public FlowSample(long flowId, long eventsSent, long bytesSent, long overflowDrops, long deadlineMisses, long backlog,
                          double arrivalRate, double departureRate, double demand, long assuredRate, long shortfall,
                          int heldRateHz) {
            this(flowId, eventsSent, bytesSent, overflowDrops, deadlineMisses, backlog, arrivalRate, departureRate, demand,
                    assuredRate, shortfall, heldRateHz, 0, 0);
        }

        public FlowSample {
            if (eventsSent < 0 || bytesSent < 0 || overflowDrops < 0 || deadlineMisses < 0 || backlog < 0
                    || assuredRate < 0 || shortfall < 0 || heldRateHz < 0 || reassignments < 0) {
                throw new IllegalArgumentException("flow " + flowId + ": counters and rates must not be negative");
            }
            if (!(arrivalRate >= 0) || !(departureRate >= 0) || !(demand >= 0) || Double.isInfinite(arrivalRate)
                    || Double.isInfinite(departureRate) || Double.isInfinite(demand)) {
                throw new IllegalArgumentException("flow " + flowId + ": rates must be finite and not negative");
            }
            if (latencyP99Micros < 0 || latencyP99Micros > MAX_LATENCY_MICROS) {
                throw new IllegalArgumentException("flow " + flowId + ": latency p99 " + latencyP99Micros
                        + " µs, must be 0 to " + MAX_LATENCY_MICROS);
            }
        }
    }

    /**
     * A router's periodic counters, sent with its flow reports: router-wide totals by name (events
     * received, forwarded, datagrams sent...), ingress drops by reason (the names of
     * {@link org.gridstat.core.wire.RejectReason}), and per out-link figures by name. Names are the
     * router's, so a newer router may add some; every value is a count since the router started.
     * Not acknowledged; the next report supersedes it. A router with more out-links than
     * {@link #MAX_LINKS} sends several reports, each with the totals.
     */
    record RouterReport(long timeMillis, java.util.Map<String, Long> totals, java.util.Map<String, Long> drops,
                        java.util.Map<String, java.util.Map<String, Long>> links) implements ControlMessage {
        /** Most named values in one group (totals, drops, one link's figures). */
        public static final int MAX_VALUES = 24;
        /** Most out-links in one report. */
        public static final int MAX_LINKS = 32;
        /** Longest name of a value, in UTF-8 bytes. */
        public static final int MAX_NAME = 48;
        /** Longest link name, in UTF-8 bytes. */
        public static final int MAX_LINK_NAME = 255;

        public RouterReport {
            if (timeMillis < 0) {
                throw new IllegalArgumentException("report time " + timeMillis + " is negative");
            }
            totals = group("totals", totals);
            drops = group("drops", drops);
            if (links.size() > MAX_LINKS) {
                throw new IllegalArgumentException(links.size() + " links in one report, at most " + MAX_LINKS);
            }
            java.util.Map<String, java.util.Map<String, Long>> l = new java.util.LinkedHashMap<>();
            links.forEach((name, figures) -> l.put(name(name, MAX_LINK_NAME), group("link " + name, figures)));
            links = java.util.Collections.unmodifiableMap(l);
        }

        private static java.util.Map<String, Long> group(String what, java.util.Map<String, Long> values) {
            if (values.size() > MAX_VALUES) {
                throw new IllegalArgumentException(what + ": " + values.size() + " values, at most " + MAX_VALUES);
            }
            java.util.Map<String, Long> copy = new java.util.LinkedHashMap<>();
            values.forEach((name, v) -> {
                if (v == null || v < 0) {
                    throw new IllegalArgumentException(what + ": " + name + " must be a count, got " + v);
                }
                copy.put(name(name, MAX_NAME), v);
            });
            return java.util.Collections.unmodifiableMap(copy);
        }

        private static String name(String name, int max) {
            int bytes = name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            if (bytes == 0 || bytes > max) {
                throw new IllegalArgumentException("a name of " + bytes + " bytes, 1 to " + max + " allowed");
            }
            return name;
        }
    }

    /**
     * The out-links a broker gives a router, in the vocabulary of the router's own link lines
     * (see {@link OutLink}): its neighbours in the broker's topology and its delivery links to
     * subscribers. Sent after {@code Hello}, before the flows; the router keeps the links of its
     * own file and takes these besides them.
     */
    record OutLinks(java.util.List<OutLink> links) implements ControlMessage {
        /** Most links in one message: far above a router's degree, and within the body limit. */
        public static final int MAX_LINKS = 256;

        public OutLinks {
            links = java.util.List.copyOf(links);
            if (links.size() > MAX_LINKS) {
                throw new IllegalArgumentException(links.size() + " out-links in one message, at most " + MAX_LINKS);
            }
            java.util.Set<String> names = new java.util.HashSet<>();
            for (OutLink l : links) {
                if (!names.add(l.name())) {
                    throw new IllegalArgumentException("out-link '" + l.name() + "' is given twice");
                }
            }
        }
    }

    /**
     * One out-link: its name (what flows name), the address it sends to and optionally the far end's
     * priority port, its capacity in bytes/s, the assured share of each class in percent, the
     * pacer's burst in bytes (0: the router's default), the largest datagram, and the emulation of a
     * wide-area link in front of it ({@link Emulation#NONE}: none).
     */
    record OutLink(String name, Endpoint address, Endpoint priority, long capacity, int hrtPercent, int lrtPercent,
                   int bePercent, long burstBytes, int mtu, Emulation emulation) {
        /** Longest link name: a name is a word of the router's configuration and of every flow it carries. */
        public static final int MAX_NAME = 64;

        public OutLink {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(emulation, "emulation");
            if (name.isEmpty() || name.length() > MAX_NAME || !name.matches("[^\\s=,]+")) {
                throw new IllegalArgumentException("out-link name '" + name + "' must be 1.." + MAX_NAME
                        + " characters without spaces, '=' or ','");
            }
            String at = "out-link '" + name + "': ";
            if (capacity <= 0) {
                throw new IllegalArgumentException(at + "capacity must be positive, got " + capacity);
            }
            if (hrtPercent < 0 || lrtPercent < 0 || bePercent < 0 || hrtPercent + lrtPercent + bePercent > 100) {
                throw new IllegalArgumentException(at + "class shares must be 0..100 percent and add up to at most 100");
            }
            if (burstBytes < 0) {
                throw new IllegalArgumentException(at + "burst must not be negative");
            }
            if (mtu < WireFormat.MAX_FRAME_LENGTH || mtu > WireFormat.MAX_DATAGRAM_LENGTH) {
                throw new IllegalArgumentException(at + "mtu must be " + WireFormat.MAX_FRAME_LENGTH + ".."
                        + WireFormat.MAX_DATAGRAM_LENGTH + " bytes, got " + mtu);
            }
        }

        /** A plain link: default shares (50/30/20 %), burst and mtu, no emulation. */
        public static OutLink of(String name, Endpoint address, long capacity) {
            return new OutLink(name, address, null, capacity, 50, 30, 20, 0, WireFormat.MAX_FRAME_LENGTH, Emulation.NONE);
        }
    }

    /**
     * A wide-area link emulated in front of an out-link: propagation delay, omission probability,
     * outages at Poisson times ({@code faultEveryNanos} mean gap, each {@code faultForNanos} long),
     * the emulator's seed, and the bytes it holds ahead of its wire (0: the router's default).
     */
    record Emulation(long delayNanos, double loss, long faultEveryNanos, long faultForNanos, long seed, long queueBytes) {
        public static final Emulation NONE = new Emulation(0, 0, 0, 0, 1, 0);

        public Emulation {
            if (delayNanos < 0 || faultEveryNanos < 0 || faultForNanos < 0 || queueBytes < 0) {
                throw new IllegalArgumentException("emulation: delay, fault times and queue must not be negative");
            }
            if (!(loss >= 0 && loss <= 1)) {
                throw new IllegalArgumentException("emulation: loss must be 0..1, got " + loss);
            }
        }

        /** Whether anything is emulated. */
        public boolean active() {
            return delayNanos > 0 || loss > 0 || faultEveryNanos > 0;
        }
    }
}
