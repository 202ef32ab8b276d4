package org.gridstat.broker.control;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.gridstat.core.control.ControlMessage.InstallFlow;

/**
 * What became of each flow sent to a router: acknowledged (installed), refused (with the
 * router's reason), or neither yet. Bounded by the flows the broker sent: an answered install is
 * forgotten as sent, and a removed flow is forgotten altogether.
 */
public final class InstallOutcomes {
    /** A router's refusal of a flow's version, and when it came (ms since 1970). */
    public record Refusal(long flowId, long version, String link, String reason, long timeMillis) {
    }

    private record Sent(long flowId, long version, String link) {
    }

    private final LongSupplier clockMillis;
    /** Per router: installs awaiting an answer, by sequence number. */
    private final Map<String, Map<Long, Sent>> awaiting = new ConcurrentHashMap<>();
    /** Per router: the version of each flow the router acknowledged in this session. */
    private final Map<String, Map<Long, Long>> installed = new ConcurrentHashMap<>();
    private final Map<String, Map<Long, Refusal>> refused = new ConcurrentHashMap<>();

    InstallOutcomes(LongSupplier clockMillis) {
        this.clockMillis = clockMillis;
    }

    void sent(String router, long sequence, InstallFlow f) {
        awaiting.computeIfAbsent(router, r -> new ConcurrentHashMap<>())
                .put(sequence, new Sent(f.spec().flowId(), f.version(), f.link()));
    }

    void acknowledged(String router, long sequence) {
        Sent s = take(router, sequence);
        if (s != null) {
            installed.computeIfAbsent(router, r -> new ConcurrentHashMap<>()).merge(s.flowId(), s.version(), Math::max);
            Map<Long, Refusal> m = refused.get(router);
            if (m != null) {
                m.computeIfPresent(s.flowId(), (id, r) -> r.version() <= s.version() ? null : r);
            }
        }
    }

    /** Returns the flow refused, or {@code null} if the sequence was no install awaiting an answer. */
    Refusal refused(String router, long sequence, String reason) {
        Sent s = take(router, sequence);
        if (s == null) {
            return null;
        }
        Refusal r = new Refusal(s.flowId(), s.version(), s.link(), reason, clockMillis.getAsLong());
        refused.computeIfAbsent(router, x -> new ConcurrentHashMap<>()).put(s.flowId(), r);
        Map<Long, Long> m = installed.get(router);
        if (m != null) {
            m.remove(s.flowId());
        }
        return r;
    }

    void removed(String router, long flowId) {
        Map<Long, Sent> a = awaiting.get(router);
        if (a != null) {
            a.values().removeIf(s -> s.flowId() == flowId); // an answer still to come is of no flow held
        }
        Map<Long, Long> i = installed.get(router);
        if (i != null) {
            i.remove(flowId);
        }
        Map<Long, Refusal> r = refused.get(router);
        if (r != null) {
            r.remove(flowId);
        }
    }

    /** A new session: the router answers every flow again; refusals stand until a flow is acknowledged. */
    void resynchronising(String router) {
        awaiting.remove(router);
        installed.remove(router);
    }

    private Sent take(String router, long sequence) {
        Map<Long, Sent> m = awaiting.get(router);
        return m == null ? null : m.remove(sequence);
    }

    /** The router's refusal of a flow, if its latest answer about it was one; else {@code null}. */
    public Refusal refusal(String router, long flowId) {
        Map<Long, Refusal> m = refused.get(router);
        return m == null ? null : m.get(flowId);
    }

    /** Whether the router acknowledged this version of the flow, or a later one, in its current session. */
    public boolean installed(String router, long flowId, long version) {
        Map<Long, Long> m = installed.get(router);
        Long v = m == null ? null : m.get(flowId);
        return v != null && v >= version;
    }
}
