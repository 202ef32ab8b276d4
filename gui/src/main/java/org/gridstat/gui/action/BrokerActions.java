package org.gridstat.gui.action;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
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
 */
public final class BrokerActions implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_NULL);
    private final BrokerConnection broker;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "gridstat-console-actions");
        t.setDaemon(true);
        return t;
    });

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
        String key = UUID.randomUUID().toString();
        return CompletableFuture.supplyAsync(() -> {
            BrokerConnection.Answer a;
            try {
                a = broker.request(method, path, body == null ? null : JSON.writeValueAsString(body), key);
            } catch (BrokerException e) {
                return new ActionOutcome(false, e.status(), "not done: " + e.getMessage());
            } catch (IOException e) {
                return new ActionOutcome(false, 0, "not sent: " + e.getMessage());
            }
            JsonNode answer = read(a.body());
            if (a.status() == expected) {
                return new ActionOutcome(true, a.status(), success.apply(answer));
            }
            String reason = answer.hasNonNull("error") ? answer.get("error").asText() : a.body();
            String verdict = switch (a.status()) {
                case 409 -> "rejected by the broker: ";
                case 400 -> "refused by the broker as malformed: ";
                case 404 -> "not found: ";
                case 500 -> "failed in the broker (the change may have been made; look before retrying): ";
                default -> "the broker answered " + a.status() + ": ";
            };
            return new ActionOutcome(false, a.status(), verdict + reason);
        }, worker);
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
