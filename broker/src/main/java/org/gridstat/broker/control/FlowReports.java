package org.gridstat.broker.control;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.gridstat.core.control.ControlMessage.FlowReport;
import org.gridstat.core.control.ControlMessage.FlowSample;

/**
 * The latest statistics each router reported for the flows the broker installed in it. Only
 * flows the broker knows of are kept, so a router cannot grow this beyond the flow table; a
 * sample older than the one kept (a report delayed or replayed) is ignored, so it cannot undo a
 * newer one or raise an alarm the newer one cleared. One older by more than
 * {@link #MAX_DELAY_MILLIS} is no delayed report but the router's clock set back (it ran ahead, or
 * a bad time came from its source): it is taken, so the router's reports are not ignored until its
 * clock catches up with the one it had.
 */
public final class FlowReports {
    /**
     * The most a report can be older than the one kept and still be a delayed one: reports come
     * every second on a session that ends after seconds of silence.
     */
    static final long MAX_DELAY_MILLIS = 10_000;

    /** A flow's latest sample and when the router took it (ms since 1970). */
    public record Latest(long timeMillis, FlowSample sample) {
    }

    private final Map<String, Map<Long, Latest>> byRouter = new ConcurrentHashMap<>();

    /** Keeps the report's samples of flows the router should hold, unless older than those kept; returns how many were ignored. */
    int accept(String router, FlowReport report, Map<Long, ?> routerFlows) {
        return accept(router, report, routerFlows, s -> { });
    }

    /**
     * The same, telling {@code becameShort} of each sample whose flow is short of bandwidth
     * (shortfall above 0) where its previous sample was not, or there was none.
     */
    int accept(String router, FlowReport report, Map<Long, ?> routerFlows, Consumer<FlowSample> becameShort) {
        Map<Long, Latest> m = byRouter.computeIfAbsent(router, r -> new ConcurrentHashMap<>());
        m.keySet().retainAll(routerFlows.keySet());
        int ignored = 0;
        for (FlowSample s : report.flows()) {
            Latest kept = m.get(s.flowId());
            if (routerFlows.containsKey(s.flowId()) && (kept == null || report.timeMillis() >= kept.timeMillis()
                    || kept.timeMillis() - report.timeMillis() > MAX_DELAY_MILLIS)) {
                m.put(s.flowId(), new Latest(report.timeMillis(), s));
                if (s.shortfall() > 0 && (kept == null || kept.sample().shortfall() == 0)) {
                    becameShort.accept(s);
                }
            } else {
                ignored++;
            }
        }
        return ignored;
    }

    /** The latest sample of a router's flow, or {@code null} if none arrived. */
    public Latest latest(String router, long flowId) {
        Map<Long, Latest> m = byRouter.get(router);
        return m == null ? null : m.get(flowId);
    }
}
