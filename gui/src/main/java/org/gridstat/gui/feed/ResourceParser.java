package org.gridstat.gui.feed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridstat.gui.model.Alarm;
import org.gridstat.gui.model.BrokerStatus;
import org.gridstat.gui.model.Device;
import org.gridstat.gui.model.Flow;
import org.gridstat.gui.model.FlowStatistics;
import org.gridstat.gui.model.Gateway;
import org.gridstat.gui.model.Hop;
import org.gridstat.gui.model.NetworkTopology;
import org.gridstat.gui.model.RouterCounters;
import org.gridstat.gui.model.RouterSession;
import org.gridstat.gui.model.Subscription;
import org.gridstat.gui.model.Variable;

/**
 * Turns the body of a management API route (docs/management-api.md) into the console's model.
 * Fields the console does not use are ignored, so a broker that adds fields still reads; a body
 * that is not what the route answers is refused as a whole ({@link UnreadableAnswer}), so one bad
 * answer never replaces good state with half a picture.
 */
public final class ResourceParser {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A body that is not JSON, or not the shape its route answers. */
    public static final class UnreadableAnswer extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnreadableAnswer(String message) {
            super(message);
        }
    }

    /**
     * The body of {@code resource}'s GET route, parsed: {@link BrokerStatus}, {@link NetworkTopology},
     * or a list of {@link RouterSession}, {@link RouterCounters}, {@link Variable}, {@link Subscription},
     * {@link Flow}, {@link Alarm} (decisions, then noise) or {@link Gateway}.
     *
     * @throws UnreadableAnswer naming the resource and what is wrong
     */
    public Object parse(Resource resource, String body) {
        JsonNode n;
        try {
            n = JSON.readTree(body);
        } catch (IOException e) {
            throw new UnreadableAnswer(resource.routeName() + ": not JSON: " + e.getMessage());
        }
        return parse(resource, n);
    }

    public Object parse(Resource resource, JsonNode n) {
        if (n == null) {
            throw new UnreadableAnswer(resource.routeName() + ": empty answer");
        }
        try {
            return switch (resource) {
                case STATUS -> status(object(n));
                case TOPOLOGY -> topology(object(n));
                case ROUTERS -> each(n, o -> new RouterSession(text(o, "id"), o.path("connected").asBoolean(),
                        o.path("unacknowledged").asLong()));
                case COUNTERS -> each(n, ResourceParser::counters);
                case VARIABLES -> each(n, o -> new Variable(text(o, "name"), o.path("id").asLong(), text(o, "router"),
                        o.path("frameBytes").asInt(), o.path("intervalNanos").asLong(), text(o, "serviceClass"),
                        o.path("correlationGroup").asText("")));
                case SUBSCRIPTIONS -> each(n, ResourceParser::subscription);
                case FLOWS -> each(n, ResourceParser::flow);
                case ALARMS -> alarms(object(n));
                case DEVICES -> each(n, ResourceParser::gateway);
            };
        } catch (UnreadableAnswer e) {
            throw new UnreadableAnswer(resource.routeName() + ": " + e.getMessage());
        }
    }

    private static BrokerStatus status(JsonNode o) {
        return new BrokerStatus(text(o, "replica"), o.path("leader").asBoolean(), o.path("leaderApi").asText(""),
                o.path("lastTakeoverMillis").asLong());
    }

    private static NetworkTopology topology(JsonNode o) {
        List<NetworkTopology.Router> routers = each(o.path("routers"), r -> new NetworkTopology.Router(text(r, "id"),
                r.path("capacityEventsPerSecond").asLong(), r.path("cloud").asText("")));
        List<NetworkTopology.Link> links = each(o.path("links"), l -> {
            Map<String, Integer> shares = new LinkedHashMap<>();
            l.path("sharePercent").fields().forEachRemaining(e -> shares.put(e.getKey(), e.getValue().asInt()));
            return new NetworkTopology.Link(text(l, "from"), text(l, "to"), l.path("bandwidthBytesPerSecond").asLong(),
                    l.path("delayNanos").asLong(), shares);
        });
        return new NetworkTopology(routers, links);
    }

    private static RouterCounters counters(JsonNode o) {
        Map<String, RouterCounters.LinkCounters> links = new LinkedHashMap<>();
        o.path("links").fields().forEachRemaining(e -> {
            JsonNode l = e.getValue();
            links.put(e.getKey(), new RouterCounters.LinkCounters(l.path("eventsSent").asLong(), l.path("bytesSent").asLong(),
                    l.path("overflowDrops").asLong(), l.path("deadlineMisses").asLong(), l.path("backlog").asLong(),
                    l.path("flows").asLong()));
        });
        return new RouterCounters(text(o, "router"), o.path("connected").asBoolean(),
                o.hasNonNull("reportedAt") ? o.get("reportedAt").asText() : null, counts(o.path("totals")),
                counts(o.path("dropsByReason")), links);
    }

    private static Subscription subscription(JsonNode o) {
        JsonNode q = object(o.path("qos"));
        List<List<Hop>> paths = each(o.path("paths"), p -> each(p, h -> new Hop(text(h, "router"),
                h.hasNonNull("next") ? h.get("next").asText() : null, h.path("budgetNanos").asLong())));
        List<String> refusals = each(o.path("installRefusals"), r -> r.path("router").asText() + "/" + r.path("link").asText()
                + ": " + r.path("reason").asText());
        double rate = q.hasNonNull("rateHz") ? q.get("rateHz").asDouble()
                : q.path("intervalNanos").asLong() > 0 ? 1e9 / q.get("intervalNanos").asLong() : 0;
        return new Subscription(o.path("id").asLong(), text(o, "variable"), text(o, "subscriberRouter"),
                text(o, "subscriberLink"), rate, q.path("latencyBoundMs").asDouble(), q.path("paths").asInt(1),
                q.path("serviceClass").asText("BE"), q.path("correlationGroup").asText(""), paths,
                o.path("state").asText(""), refusals);
    }

    private static Flow flow(JsonNode o) {
        JsonNode s = o.get("statistics");
        FlowStatistics st = s == null || s.isNull() ? null : new FlowStatistics(s.path("reportedAtMillis").asLong(),
                s.path("eventsSent").asLong(), s.path("bytesSent").asLong(), s.path("overflowDrops").asLong(),
                s.path("deadlineMisses").asLong(), s.path("backlog").asLong(), s.path("arrivalBytesPerSecond").asLong(),
                s.path("departureBytesPerSecond").asLong(), s.path("demandBytesPerSecond").asLong(),
                s.path("state").asText(""), s.path("assuredInForceBytesPerSecond").asLong(),
                s.path("shortfallBytesPerSecond").asLong(), s.path("heldRateHz").asDouble(),
                s.hasNonNull("latencyP99Micros") ? s.get("latencyP99Micros").asLong() : null,
                s.hasNonNull("reassignments") ? s.get("reassignments").asLong() : null);
        List<Long> intervals = each(o.path("intervalsNanos"), JsonNode::asLong);
        return new Flow(text(o, "router"), o.path("flowId").asLong(), o.path("version").asLong(),
                o.path("variableId").asLong(), text(o, "link"), o.path("serviceClass").asText("BE"),
                o.path("assuredBytesPerSecond").asLong(),
                o.hasNonNull("minimumBytesPerSecond") ? o.get("minimumBytesPerSecond").asLong() : null,
                o.path("ceilingBytesPerSecond").asLong(), intervals, st);
    }

    private static List<Alarm> alarms(JsonNode o) {
        List<Alarm> out = new ArrayList<>();
        out.addAll(each(o.path("decisions"), a -> alarm(a, true)));
        out.addAll(each(o.path("noise"), a -> alarm(a, false)));
        return out;
    }

    private static Alarm alarm(JsonNode a, boolean decision) {
        String message = a.path("message").asText("");
        return new Alarm(text(a, "source"), text(a, "kind"), a.path("severity").asText("INFO"),
                a.path("subject").asText(message), message, a.path("count").asLong(1), instant(a, "firstSeen"),
                instant(a, "lastSeen"), decision);
    }

    private static Gateway gateway(JsonNode o) {
        List<Device> devices = each(o.path("devices"), d -> {
            JsonNode stat = d.get("stat");
            JsonNode tq = d.get("timeQuality");
            return new Device(text(d, "name"), d.path("state").asText(""), d.path("health").asText(""),
                    d.hasNonNull("configCount") ? d.get("configCount").asInt() : null,
                    d.hasNonNull("dataRateHz") ? d.get("dataRateHz").asInt() : null,
                    tq != null && tq.hasNonNull("code") ? tq.get("code").asInt() : null,
                    tq != null && tq.path("leapPending").asBoolean(),
                    d.hasNonNull("lastDataAgeMs") ? d.get("lastDataAgeMs").asLong() : null,
                    stat != null && stat.hasNonNull("dataError") ? stat.get("dataError").asInt() : null,
                    stat != null && stat.hasNonNull("syncError") ? stat.get("syncError").asBoolean() : null,
                    counts(d.path("counters")), counts(d.path("rejects")));
        });
        return new Gateway(text(o, "gateway"), o.path("receivedAt").asText(""), o.path("reportAgeMs").asLong(),
                o.path("periodMs").asLong(), o.path("stale").asBoolean(), devices);
    }

    private static Map<String, Long> counts(JsonNode o) {
        Map<String, Long> m = new LinkedHashMap<>();
        o.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asLong()));
        return m;
    }

    private static Instant instant(JsonNode o, String field) {
        String t = o.path(field).asText("");
        try {
            return t.isEmpty() ? Instant.EPOCH : Instant.parse(t);
        } catch (DateTimeParseException e) {
            throw new UnreadableAnswer("field '" + field + "' is not an ISO-8601 time: " + t);
        }
    }

    private static JsonNode object(JsonNode n) {
        if (!n.isObject()) {
            throw new UnreadableAnswer("expected an object, got " + n.getNodeType());
        }
        return n;
    }

    private static String text(JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || !v.isValueNode() || v.isNull()) {
            throw new UnreadableAnswer("field '" + field + "' is missing");
        }
        return v.asText();
    }

    private static <T> List<T> each(JsonNode n, java.util.function.Function<JsonNode, T> element) {
        if (n.isMissingNode() || n.isNull()) {
            return List.of();
        }
        if (!n.isArray()) {
            throw new UnreadableAnswer("expected a list, got " + n.getNodeType());
        }
        List<T> out = new ArrayList<>(n.size());
        for (JsonNode e : n) {
            out.add(element.apply(e));
        }
        return out;
    }
}
