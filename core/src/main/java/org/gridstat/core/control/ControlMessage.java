package org.gridstat.core.control;

import java.util.Arrays;
import java.util.Objects;
import org.gridstat.core.sched.FlowSpec;

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
                       long publisherIntervalNanos, long downstreamBudgetNanos, long minRestDelayNanos)
            implements ControlMessage {
        public InstallFlow {
            Objects.requireNonNull(link, "link");
            Objects.requireNonNull(spec, "spec");
            if (minRestDelayNanos < 0) {
                throw new IllegalArgumentException("flow " + spec.flowId() + ": least rest-of-path delay must not be negative");
            }
            intervalsNanos = intervalsNanos.clone();
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
                    downstreamBudgetNanos, minRestDelayNanos);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof InstallFlow f && f.version == version && f.variableId == variableId && f.link.equals(link)
                    && f.spec.equals(spec) && Arrays.equals(f.intervalsNanos, intervalsNanos)
                    && f.publisherIntervalNanos == publisherIntervalNanos && f.downstreamBudgetNanos == downstreamBudgetNanos
                    && f.minRestDelayNanos == minRestDelayNanos;
        }

        @Override
        public int hashCode() {
            return Objects.hash(version, variableId, link, spec, Arrays.hashCode(intervalsNanos));
        }
    }

    /** Remove a flow; idempotent by version. */
    record RemoveFlow(long flowId, long version) implements ControlMessage {
    }

    /** The broker has sent its whole state for this router; flows not installed since are stale. */
    record SyncEnd() implements ControlMessage {
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
     * misses), its backlog, and its EWMA arrival and departure rates in bytes per second.
     */
    record FlowSample(long flowId, long eventsSent, long bytesSent, long overflowDrops, long deadlineMisses, long backlog,
                      double arrivalRate, double departureRate) {
        public FlowSample {
            if (eventsSent < 0 || bytesSent < 0 || overflowDrops < 0 || deadlineMisses < 0 || backlog < 0) {
                throw new IllegalArgumentException("flow " + flowId + ": counters must not be negative");
            }
            if (!(arrivalRate >= 0) || !(departureRate >= 0) || Double.isInfinite(arrivalRate)
                    || Double.isInfinite(departureRate)) {
                throw new IllegalArgumentException("flow " + flowId + ": rates must be finite and not negative");
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
}
