package org.gridstat.broker.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.control.AlarmLog;
import org.gridstat.broker.control.CounterReports;
import org.gridstat.broker.control.InstallOutcomes;
import org.gridstat.broker.topology.RouterNode;
import org.gridstat.core.control.ControlMessage.InstallFlow;

/**
 * The read-only views operators rely on: each router's own counters, the alarms, and the state of
 * a subscription's installs. Times are ISO-8601 UTC, rates carry their unit in their name and are
 * rounded to what they mean ({@link #bytesPerSecond}, {@link #hertz}).
 */
final class OperatorViews {
    private OperatorViews() {
    }

    /** A rate in bytes per second, to the whole byte: an estimate's decimals mean nothing. */
    static long bytesPerSecond(double rate) {
        return Math.round(rate);
    }

    /** A frequency to the millihertz: a rate derived from a whole number of nanoseconds is no more exact. */
    static double hertz(double hz) {
        return Math.round(hz * 1000) / 1000.0;
    }

    static String time(long millis) {
        return Instant.ofEpochMilli(millis).toString();
    }

    /** Per router of the topology: its session, and the counters it last reported (absent if none). */
    static List<Map<String, Object>> counters(QosBroker b) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (RouterNode r : b.topology().routers()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("router", r.id());
            m.put("connected", b.control().connected(r.id()));
            CounterReports.Latest latest = b.control().counters().latest(r.id());
            if (latest != null) {
                m.put("reportedAt", time(latest.timeMillis()));
                m.put("totals", latest.totals());
                m.put("dropsByReason", latest.drops());
                m.put("links", latest.links());
            }
            out.add(m);
        }
        return out;
    }

    /**
     * Per gateway, by id: when its latest report came, how old it is, whether the gateway has
     * fallen silent ({@code stale}: no report for three of its periods; its devices are then shown
     * as last reported), and its devices as it reported them.
     */
    static List<Map<String, Object>> devices(DeviceReports reports) {
        long now = reports.nowMono();
        List<Map<String, Object>> out = new ArrayList<>();
        for (DeviceReports.Entry e : reports.all()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("gateway", e.gateway());
            m.put("receivedAt", time(e.receivedEpochNanos() / 1_000_000));
            m.put("reportAgeMs", e.ageNanos(now) / 1_000_000);
            m.put("periodMs", e.report().periodMs());
            m.put("stale", e.stale(now));
            m.put("devices", e.report().devices());
            out.add(m);
        }
        return out;
    }

    /** The alarms, most recently seen first, decisions apart from noise. */
    static Map<String, Object> alarms(AlarmLog log) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("decisions", alarmList(log.recent(AlarmLog.Category.DECISION)));
        m.put("noise", alarmList(log.recent(AlarmLog.Category.NOISE)));
        m.put("dropped", Map.of("decisions", log.dropped(AlarmLog.Category.DECISION),
                "noise", log.dropped(AlarmLog.Category.NOISE)));
        m.put("noiseSuppressed", log.noiseSuppressed());
        m.put("capacityPerList", log.capacity());
        return m;
    }

    private static List<Map<String, Object>> alarmList(List<AlarmLog.Alarm> alarms) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (AlarmLog.Alarm a : alarms) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("source", a.source());
            m.put("kind", a.kind().name());
            m.put("severity", a.severity().name());
            m.put("subject", a.subject());
            m.put("message", a.message());
            m.put("count", a.count());
            m.put("firstSeen", time(a.firstSeenMillis()));
            m.put("lastSeen", time(a.lastSeenMillis()));
            out.add(m);
        }
        Collections.reverse(out);
        return out;
    }

    /**
     * A subscription as the API shows it: its document plus {@code state}, {@code installed} when
     * every router on its paths acknowledged its flow, {@code installRefused} when a router refused
     * one (each refusal listed with the router, link and reason), else {@code installing}.
     */
    static ObjectNode subscription(QosBroker b, AdmittedSubscription s) {
        return subscription(b, installed(b.flows()), s);
    }

    /**
     * Every admitted subscription as {@link #subscription} shows it. The routers' flows are looked
     * up once for all: taken per subscription, a thousand flows cost a hundredfold (the table is
     * rebuilt on each call), and the event stream asks for this list at every pulse.
     */
    static List<ObjectNode> subscriptions(QosBroker b) {
        Map<String, InstallFlow> flows = installed(b.flows());
        return b.subscriptions().stream().map(s -> subscription(b, flows, s)).toList();
    }

    /** Each router's flows by router, variable and out-link ({@link #key}); the first of a router's list where two match. */
    private static Map<String, InstallFlow> installed(Map<String, List<InstallFlow>> byRouter) {
        Map<String, InstallFlow> out = new java.util.HashMap<>();
        byRouter.forEach((router, flows) -> flows.forEach(f -> out.putIfAbsent(key(router, f.variableId(), f.link()), f)));
        return out;
    }

    private static String key(String router, long variable, String link) {
        return router + "\n" + variable + "\n" + link;
    }

    private static ObjectNode subscription(QosBroker b, Map<String, InstallFlow> flows, AdmittedSubscription s) {
        ObjectNode d = ManagementRoutes.JSON.valueToTree(ManagementRoutes.document(s));
        InstallOutcomes outcomes = b.control().outcomes();
        long variable = s.request().variable().value();
        ArrayNode refusals = ManagementRoutes.JSON.createArrayNode();
        boolean pending = false;
        java.util.Set<String> seen = new java.util.HashSet<>(); // the paths of one subscription share routers
        for (List<AdmissionResult.Hop> path : s.admitted().paths()) {
            for (AdmissionResult.Hop h : path) {
                String link = h.next() != null ? h.next() : s.request().subscriberLink();
                InstallFlow f = flows.get(key(h.router(), variable, link));
                if (!seen.add(h.router() + "\n" + link)) {
                    continue;
                }
                if (f == null) {
                    pending = true;
                    continue;
                }
                InstallOutcomes.Refusal r = outcomes.refusal(h.router(), f.spec().flowId());
                if (r != null) {
                    refusals.addObject().put("router", h.router()).put("link", link).put("flowId", r.flowId())
                            .put("reason", r.reason()).put("refusedAt", time(r.timeMillis()));
                } else if (!outcomes.installed(h.router(), f.spec().flowId(), f.version())) {
                    pending = true;
                }
            }
        }
        d.put("state", !refusals.isEmpty() ? "installRefused" : pending ? "installing" : "installed");
        if (!refusals.isEmpty()) {
            d.set("installRefusals", refusals);
        }
        return d;
    }
}
