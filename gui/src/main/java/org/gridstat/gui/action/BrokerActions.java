package org.gridstat.gui.action;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.gridstat.client.BrokerConnection;
import org.gridstat.client.BrokerException;

/**
 * The operator's changes, sent to the leading replica's management API off the UI thread, one at a
 * time: admit ({@code POST /subscriptions}), modify ({@code PUT /subscriptions/{id}}) and tear down
 * ({@code DELETE /subscriptions/{id}}). Each carries an {@code Idempotency-Key} made for it, so a
 * retry after a lost connection is made once by the broker, whichever replica leads by then.
 *
 * <p>An action whose outcome is unknown (no answer in time, the connection lost, a 500 after which
 * the change may stand) keeps its key: the same action asked again (same method, route and body)
 * is sent under it, so if the first was made the broker answers the repeat with the first answer
 * instead of making it twice. An action the broker answered, either way, lets its key go: asking
 * for it again is a new action. An admission's or a change's key is kept only until another action
 * is sent: that one may have undone it (the subscription it admitted torn down, the subscription
 * changed again), and the same values asked afterwards are a new action, which the broker would
 * otherwise answer with the first answer without making it. A tear-down's key is kept across
 * other actions: a tear-down once made stays made, so its first answer stays true.
 */
public final class BrokerActions implements AutoCloseable {
    /** Unknown outcomes whose keys are kept for a retry; the oldest goes beyond this. */
    static final int KEPT_KEYS = 32;
    private static final ObjectMapper JSON = new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_NULL);
    private final BrokerConnection broker;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "gridstat-console-actions");
        t.setDaemon(true);
        return t;
    });
    /** The key of each action whose outcome is unknown, by the action (method, path, body); guarded by itself. */
    private final Map<String, String> unknownKeys = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > KEPT_KEYS;
        }
    };

    public BrokerActions(BrokerConnection broker) {
        this.broker = broker;
    }

    public CompletableFuture<ActionOutcome> admit(SubscriptionRequest r) {
        ObjectNode body = JSON.createObjectNode().put("variable", r.variable()).put("subscriberRouter", r.router())
                .put("subscriberLink", r.link());
        ObjectNode qos = body.putObject("qos").put("rateHz", r.rateHz()).put("latencyBoundMs", r.latencyBoundMs())
                .put("paths", r.paths()).put("serviceClass", r.serviceClass());
        if (!r.correlationGroup().isEmpty()) {
            qos.put("correlationGroup", r.correlationGroup());
        }
        return send("POST", "/subscriptions", body, 201, a -> "admitted as subscription " + a.path("id").asLong()
                + " on " + paths(a));
    }

    public CompletableFuture<ActionOutcome> modify(long id, QosChange c) {
        ObjectNode body = JSON.createObjectNode();
        ObjectNode qos = body.putObject("qos");
        if (c.rateHz() != null) {
            qos.put("rateHz", c.rateHz());
        }
        if (c.latencyBoundMs() != null) {
            qos.put("latencyBoundMs", c.latencyBoundMs());
        }
        if (c.serviceClass() != null) {
            qos.put("serviceClass", c.serviceClass());
        }
        if (c.correlationGroup() != null) {
            qos.put("correlationGroup", c.correlationGroup());
        }
        return send("PUT", "/subscriptions/" + id, body, 200, a -> "subscription " + id + " changed; now on " + paths(a));
    }

    public CompletableFuture<ActionOutcome> tearDown(long id) {
        return send("DELETE", "/subscriptions/" + id, null, 204, a -> "subscription " + id
                + " torn down; its reservations are freed");
    }

    private CompletableFuture<ActionOutcome> send(String method, String path, JsonNode body, int expected,
                                                  java.util.function.Function<JsonNode, String> success) {
        String json;
        try {
            json = body == null ? null : JSON.writeValueAsString(body);
        } catch (IOException e) {
            return CompletableFuture.completedFuture(new ActionOutcome(ActionOutcome.Verdict.NOT_DONE, 0,
                    "not sent: " + e.getMessage()));
        }
        String action = method + " " + path + "\n" + (json == null ? "" : json);
        String key;
        synchronized (unknownKeys) {
            // another action may undo an admission or a change left unknown: their keys go
            unknownKeys.keySet().removeIf(a -> !a.equals(action) && !a.startsWith("DELETE "));
            key = unknownKeys.computeIfAbsent(action, a -> UUID.randomUUID().toString());
        }
        return CompletableFuture.supplyAsync(() -> {
            ActionOutcome o = outcome(method, path, json, key, expected, success);
            synchronized (unknownKeys) {
                if (o.verdict() != ActionOutcome.Verdict.UNKNOWN) {
                    unknownKeys.remove(action); // answered: the same action asked again is a new one
                }
            }
            return o;
        }, worker);
    }

    private ActionOutcome outcome(String method, String path, String json, String key, int expected,
                                  java.util.function.Function<JsonNode, String> success) {
        BrokerConnection.Answer a;
        try {
            a = broker.request(method, path, json, key);
        } catch (BrokerException e) {
            // no answer: it may have been made (a timeout, a connection lost after sending) or not
            return new ActionOutcome(ActionOutcome.Verdict.UNKNOWN, e.status(), "outcome unknown — check the flow"
                    + " table (sent again, the same action is made at most once): " + e.getMessage());
        }
        JsonNode answer = read(a.body());
        if (a.status() == expected) {
            return new ActionOutcome(ActionOutcome.Verdict.DONE, a.status(), success.apply(answer));
        }
        String reason = answer.hasNonNull("error") ? answer.get("error").asText() : a.body();
        if (a.status() == 500) {
            return new ActionOutcome(ActionOutcome.Verdict.UNKNOWN, a.status(), "outcome unknown — check the flow table"
                    + " (the broker failed after the change may have been made; sent again, the same action is made at"
                    + " most once): " + reason);
        }
        String verdict = switch (a.status()) {
            case 409 -> "rejected by the broker: ";
            case 400 -> "refused by the broker as malformed: ";
            case 404 -> "not found: ";
            default -> "the broker answered " + a.status() + ": ";
        };
        return new ActionOutcome(ActionOutcome.Verdict.NOT_DONE, a.status(), verdict + reason);
    }

    private static JsonNode read(String body) {
        if (body == null || body.isBlank()) {
            return JSON.createObjectNode();
        }
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }

    private static String paths(JsonNode subscription) {
        StringBuilder b = new StringBuilder();
        for (JsonNode p : subscription.path("paths")) {
            if (!b.isEmpty()) {
                b.append(", ");
            }
            StringBuilder one = new StringBuilder();
            for (JsonNode h : p) {
                if (!one.isEmpty()) {
                    one.append("->");
                }
                one.append(h.path("router").asText());
            }
            b.append(one);
        }
        return b.isEmpty() ? "its paths" : b.toString();
    }

    @Override
    public void close() {
        worker.shutdownNow();
    }
}
