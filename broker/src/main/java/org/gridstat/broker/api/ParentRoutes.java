package org.gridstat.broker.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.gridstat.broker.hierarchy.CrossCloudSubscription;
import org.gridstat.broker.hierarchy.ParentBroker;
import org.gridstat.broker.topology.Topology;
import org.gridstat.client.SubscriptionRejectedException;
import org.gridstat.core.management.QosDocument;

/**
 * A parent broker's API, version 1 ({@code parent-openapi.yaml}): the border topology and the
 * cross-cloud subscriptions, with the same documents as a leaf's where they mean the same, so that
 * {@code gridstat admin} and {@code BrokerConnection} work against it too. Operations run on the
 * worker threads given, since they wait on the leaves.
 */
public final class ParentRoutes implements ManagementApi.Routes {
    /** Each resource under the prefix and its methods: what {@code parent-openapi.yaml} must describe. */
    static final Map<String, Set<String>> RESOURCES = Map.of("/status", Set.of("GET"), "/openapi.yaml", Set.of("GET"),
            "/topology", Set.of("GET"), "/subscriptions", Set.of("GET", "POST"),
            "/subscriptions/{id}", Set.of("GET", "DELETE"));
    private static final ResourceTable TABLE = new ResourceTable(RESOURCES);

    private final ParentBroker parent;
    private final Topology borders;
    private final Executor worker;

    public ParentRoutes(ParentBroker parent, Topology borders, Executor worker) {
        this.parent = parent;
        this.borders = borders;
        this.worker = worker;
    }

    @Override
    public CompletableFuture<ApiResponse> handle(String method, String path, byte[] body) {
        ResourceTable.Match m = TABLE.match(method, path);
        if (m.refusal() != null) {
            return CompletableFuture.completedFuture(m.refusal());
        }
        try {
            return CompletableFuture.supplyAsync(() -> answer(m.route(method), m.id(), body), worker)
                    .exceptionally(ManagementRoutes::failure);
        } catch (java.util.concurrent.RejectedExecutionException busy) {
            return CompletableFuture.completedFuture(ApiResponse.error(503, "the parent broker is busy; try again"));
        }
    }

    private ApiResponse answer(String key, long id, byte[] body) {
        switch (key) {
            case "GET /status":
                return ApiResponse.ok(Map.of("role", "parent", "subscriptions", parent.subscriptions().size(),
                        "pending", parent.pending().size()));
            case "GET /openapi.yaml":
                return new ApiResponse(200, OpenApi.text("parent-openapi.yaml"));
            case "GET /topology":
                return ApiResponse.ok(ManagementRoutes.topology(borders));
            case "GET /subscriptions":
                return ApiResponse.ok(parent.subscriptions().stream().map(ParentRoutes::document).toList());
            case "POST /subscriptions": {
                RequestParser.SubscriptionOrder o = RequestParser.subscription(body);
                try {
                    return new ApiResponse(201, document(parent.subscribe(o.variable(), o.subscriberRouter(),
                            o.subscriberLink(), o.qos())));
                } catch (SubscriptionRejectedException e) {
                    return ApiResponse.error(409, e.reason());
                }
            }
            case "GET /subscriptions/{id}":
                return parent.subscriptions().stream().filter(s -> s.id() == id).findFirst()
                        .map(s -> ApiResponse.ok(document(s))).orElse(ApiResponse.error(404, "no subscription " + id));
            case "DELETE /subscriptions/{id}":
                return parent.unsubscribe(id) ? new ApiResponse(204, null) : ApiResponse.error(404, "no subscription " + id);
            default:
                throw new IllegalStateException("route " + key + " is listed but not handled");
        }
    }

    private static Map<String, Object> document(CrossCloudSubscription s) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("id", s.id());
        d.put("variable", s.variable());
        d.put("subscriberRouter", s.subscriberRouter());
        d.put("subscriberLink", s.subscriberLink());
        d.put("qos", QosDocument.of(s.qos()));
        d.put("paths", List.of(s.hops()));
        d.put("borderLinks", s.borderLinks());
        d.put("segments", s.segments());
        return d;
    }

}
