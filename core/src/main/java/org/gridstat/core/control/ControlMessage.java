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
     * misses), its backlog, and its EWMA arrival and departure rates in events per second.
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
}
