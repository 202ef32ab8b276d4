package org.gridstat.broker.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The resources the event stream pushes, each taken by asking the routes for its {@code GET}: an
 * event's data is byte for byte what {@code GET /api/v1/<resource>} answers at that moment, so a
 * console reads one document shape whether it polls or listens, and a standby's refusal (503
 * naming the leader) is the same too.
 *
 * <p>Whether a resource changed is judged by its {@linkplain Snapshot#identity identity}: its JSON,
 * except for {@code devices}, whose gateways' {@code reportAgeMs} moves with the clock alone; its
 * identity is its JSON without them. So {@code devices} is sent again when a report comes, a
 * gateway turns stale, or one appears or goes, not at every pulse; the ages it carries are those
 * at sending, and a console adds the time since it received them.
 */
final class LiveViews {
    /** The resources pushed, in the order the snapshot lists them and a pulse sends them. */
    static final List<String> RESOURCES = List.of("flows", "subscriptions", "alarms", "devices", "routers");
    /** The field of {@code devices} that moves with the clock alone. */
    static final String CLOCK_FIELD = "reportAgeMs";
    private static final int DEVICES = RESOURCES.indexOf("devices");

    /**
     * The resources' JSON at one moment, by their index in {@link #RESOURCES}, and what tells
     * whether each changed ({@code identity}: the JSON itself but for {@code devices}); or, if one
     * was not answered 200, that answer and no JSON.
     */
    record Snapshot(byte[][] json, byte[][] identity, ApiResponse refusal) {
        /**
         * The {@code snapshot} event's data: one object with each resource's JSON under its name,
         * {@code {"flows":[...],"subscriptions":[...],"alarms":{...},"devices":[...],"routers":[...]}}.
         */
        byte[] document() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write('{');
            for (int i = 0; i < RESOURCES.size(); i++) {
                out.writeBytes(((i == 0 ? "\"" : ",\"") + RESOURCES.get(i) + "\":").getBytes(StandardCharsets.US_ASCII));
                out.writeBytes(json[i]);
            }
            out.write('}');
            return out.toByteArray();
        }
    }

    private final ManagementApi.Routes routes;
    /** The last pulse's JSON and identities: a resource unchanged since is handed on as the same arrays. Pulse thread only. */
    private final byte[][] previous = new byte[RESOURCES.size()][];
    private final byte[][] previousIdentity = new byte[RESOURCES.size()][];

    LiveViews(ManagementApi.Routes routes) {
        this.routes = routes;
    }

    /** The resources now, as a new stream's snapshot. */
    Snapshot take() {
        byte[][] json = new byte[RESOURCES.size()][];
        byte[][] identity = new byte[RESOURCES.size()][];
        for (int i = 0; i < json.length; i++) {
            ApiResponse answer = get(RESOURCES.get(i));
            if (answer.status() != 200) {
                return new Snapshot(null, null, answer);
            }
            try {
                json[i] = ManagementRoutes.JSON.writeValueAsBytes(answer.body()); // as ManagementApi sends the GET's body
                identity[i] = i == DEVICES ? withoutClock(answer.body()) : json[i];
            } catch (JsonProcessingException e) {
                return new Snapshot(null, null, ApiResponse.error(500, "cannot encode " + RESOURCES.get(i) + ": " + e.getMessage()));
            }
        }
        return new Snapshot(json, identity, null);
    }

    /** The devices' JSON without each gateway's {@link #CLOCK_FIELD}. */
    private static byte[] withoutClock(Object body) throws JsonProcessingException {
        JsonNode tree = ManagementRoutes.JSON.valueToTree(body);
        if (tree.isArray()) {
            for (JsonNode gateway : tree) {
                if (gateway instanceof ObjectNode o) {
                    o.remove(CLOCK_FIELD);
                }
            }
        }
        return ManagementRoutes.JSON.writeValueAsBytes(tree);
    }

    /**
     * The resources now, for a pulse: each one unchanged since the previous pulse (by its identity)
     * is the very arrays that pulse had, so a stream that sent it sees it unchanged without
     * comparing its bytes. Called by the pulse thread only.
     */
    Snapshot next() {
        Snapshot s = take();
        if (s.refusal() == null) {
            for (int i = 0; i < previous.length; i++) {
                if (Arrays.equals(previousIdentity[i], s.identity()[i])) {
                    s.json()[i] = previous[i];
                    s.identity()[i] = previousIdentity[i];
                }
                previous[i] = s.json()[i];
                previousIdentity[i] = s.identity()[i];
            }
        }
        return s;
    }

    private ApiResponse get(String resource) {
        CompletableFuture<ApiResponse> f = routes.handle("GET", ResourceTable.PREFIX + "/" + resource, null);
        // a leaf's reads answer at once; an answer that would keep the event loop waiting is not taken
        ApiResponse answer = f.getNow(null);
        return answer != null ? answer : ApiResponse.error(500, "GET /" + resource + " did not answer at once");
    }
}
