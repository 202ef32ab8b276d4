package org.gridstat.gui.whatif;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.EnumMap;
import java.util.Map;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.ServiceClass;

/**
 * The management API's {@code GET /topology} body as the broker's own {@link Topology}, for the
 * simulator: routers (capacity, queueing budget, cloud) and links (bandwidth, delay, class shares).
 * Delivery links and data addresses are not in the API, so the topology takes any delivery link
 * name, as a broker whose topology declares none does; the broker still decides.
 */
final class TopologyDocument {
    private TopologyDocument() {
    }

    /** @throws IllegalArgumentException saying what of the body is not a topology */
    static Topology parse(JsonNode doc) {
        if (doc == null || !doc.path("routers").isArray() || !doc.path("links").isArray()) {
            throw new IllegalArgumentException("expected {\"routers\": [...], \"links\": [...]}");
        }
        Topology.Builder b = Topology.builder();
        for (JsonNode r : doc.get("routers")) {
            b.router(text(r, "id"), positive(r, "capacityEventsPerSecond"),
                    r.path("queueingNanos").asLong(Topology.Builder.DEFAULT_QUEUEING_BUDGET), r.path("cloud").asText(""));
        }
        for (JsonNode l : doc.get("links")) {
            Map<ServiceClass, Integer> shares = new EnumMap<>(ServiceClass.class);
            for (var it = l.path("sharePercent").fields(); it.hasNext(); ) {
                var e = it.next();
                shares.put(ServiceClass.valueOf(e.getKey()), e.getValue().asInt());
            }
            b.link(text(l, "from"), text(l, "to"), positive(l, "bandwidthBytesPerSecond"), l.path("delayNanos").asLong(), shares);
        }
        return b.build();
    }

    private static String text(JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException("field '" + field + "' is missing");
        }
        return v.asText();
    }

    private static long positive(JsonNode o, String field) {
        long v = o.path(field).asLong();
        if (v <= 0) {
            throw new IllegalArgumentException("field '" + field + "' must be a positive number, got " + o.get(field));
        }
        return v;
    }
}
