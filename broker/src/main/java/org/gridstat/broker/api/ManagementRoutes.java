package org.gridstat.broker.api;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.gridstat.broker.BrokerReplica;
import org.gridstat.broker.BrokerStoppedException;
import org.gridstat.broker.Failures;
import org.gridstat.broker.NotLeaderException;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.StoredButNotInstalledException;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.catalog.PublishedVariable;
import org.gridstat.broker.store.FencedWriteException;
import org.gridstat.broker.store.RememberedRequest;
import org.gridstat.broker.store.StateChange;
import org.gridstat.broker.control.ControlChannelServer;
import org.gridstat.broker.control.FlowReports;
import org.gridstat.core.congestion.FlowState;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.RouterNode;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.control.ControlMessage.InstallFlow;
import org.gridstat.core.management.ErrorDocument;
import org.gridstat.core.management.GatewayReportDocument;
import org.gridstat.core.management.QosDocument;
import org.gridstat.core.management.SubscriptionDocument;
import org.gridstat.core.management.VariableDocument;

/**
 * The management API's resources, version 1 (described in {@code openapi.yaml}, served at
 * {@code /api/v1/openapi.yaml}). Pure request-to-answer logic; {@link ManagementApi} carries it
 * over HTTP. Reads of the topology and the replica's status work on a standby; everything else is
 * the leader's, and a standby answers 503 naming the leader.
 */
final class ManagementRoutes implements ManagementApi.Routes {
    static final String PREFIX = ResourceTable.PREFIX;
    static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .setSerializationInclusion(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL);
    /** Each resource under the prefix and its methods: what {@code openapi.yaml} must describe. */
    static final Map<String, Set<String>> RESOURCES = Map.ofEntries(
            Map.entry("/status", Set.of("GET")), Map.entry("/openapi.yaml", Set.of("GET")),
            Map.entry("/topology", Set.of("GET")), Map.entry("/routers", Set.of("GET")), Map.entry("/flows", Set.of("GET")),
            Map.entry("/alarms", Set.of("GET")), Map.entry("/variables", Set.of("GET", "POST")),
            Map.entry("/subscriptions", Set.of("GET", "POST")),
            Map.entry("/subscriptions/{id}", Set.of("GET", "PUT", "DELETE")), Map.entry("/counters", Set.of("GET")),
            Map.entry("/gateways/{gateway}/devices", Set.of("PUT")), Map.entry("/devices", Set.of("GET")),
            Map.entry("/events", Set.of("GET")));
    private static final ResourceTable TABLE = new ResourceTable(RESOURCES);

    private final BrokerReplica replica;
    private final DeviceReports devices;

    ManagementRoutes(BrokerReplica replica) {
        this(replica, new DeviceReports(org.gridstat.core.time.SystemClock.INSTANCE,
                org.gridstat.core.time.SystemNanoClock.INSTANCE));
    }

    /** With the gateways' device reports kept in {@code devices} (tests give it a manual clock). */
    ManagementRoutes(BrokerReplica replica, DeviceReports devices) {
        this.replica = replica;
        this.devices = devices;
    }

    @Override
    public CompletableFuture<ApiResponse> handle(String method, String path, byte[] body) {
        return handle(method, path, body, null);
    }

    /** Answers a request; the future completes once any change it made is durable. */
    @Override
    public CompletableFuture<ApiResponse> handle(String method, String path, byte[] body, String idempotencyKey) {
        try {
            return route(method, path, body, idempotencyKey).exceptionally(ManagementRoutes::failure);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(failure(e));
        }
    }

    private CompletableFuture<ApiResponse> route(String method, String path, byte[] body, String idempotencyKey) {
        ResourceTable.Match m = TABLE.match(method, path);
        if (m.refusal() != null) {
            return done(m.refusal());
        }
        long id = m.id();
        switch (m.route(method)) {
            case "GET /status":
                return done(ApiResponse.ok(replica.status()));
            case "GET /openapi.yaml":
                return done(new ApiResponse(200, OpenApi.text()));
            case "GET /topology":
                return done(ApiResponse.ok(topology(replica.topology())));
            case "GET /routers":
                return done(ApiResponse.ok(routers(replica.leading())));
            case "GET /flows":
                return done(ApiResponse.ok(flows(replica.leading())));
            case "GET /alarms":
                return done(ApiResponse.ok(OperatorViews.alarms(replica.leading().control().alarms())));
            case "GET /counters":
                return done(ApiResponse.ok(OperatorViews.counters(replica.leading())));
            case "GET /devices":
                replica.leading(); // the leader's view: a standby sends the console to it
                return done(ApiResponse.ok(OperatorViews.devices(devices)));
            case "PUT /gateways/{gateway}/devices": {
                replica.leading(); // gateways report to the leader, whose view the console reads
                String gateway = DeviceReportParser.gatewayId(m.name());
                GatewayReportDocument report = DeviceReportParser.report(body);
                try {
                    devices.put(gateway, report);
                } catch (DeviceReports.Refused e) {
                    return done(ApiResponse.error(409, e.getMessage()));
                }
                return done(new ApiResponse(204, null));
            }
            case "GET /events":
                replica.leading(); // the leader's resources: a standby sends the console to it
                return done(EventStreams.ACCEPTED); // ManagementApi carries the stream
            case "GET /variables":
                return done(ApiResponse.ok(replica.leading().variables().stream().map(ManagementRoutes::document).toList()));
            case "POST /variables": {
                RequestParser.Declaration d = RequestParser.declaration(body);
                return once(idempotencyKey, method, path, body, b -> declare(b, d));
            }
            case "GET /subscriptions":
                return done(ApiResponse.ok(OperatorViews.subscriptions(replica.leading())));
            case "POST /subscriptions": {
                RequestParser.SubscriptionOrder o = RequestParser.subscription(body);
                return once(idempotencyKey, method, path, body, b -> subscribe(b, o));
            }
            case "GET /subscriptions/{id}": {
                QosBroker b = replica.leading();
                AdmittedSubscription s = b.subscription(id);
                return done(s == null ? ApiResponse.error(404, "no subscription " + id)
                        : ApiResponse.ok(OperatorViews.subscription(b, s)));
            }
            case "PUT /subscriptions/{id}": {
                RequestParser.QosChange change = RequestParser.modification(body, id);
                return once(idempotencyKey, method, path, body, b -> b.modify(id, change::applyTo)
                        .thenApply(r -> answer(b, r, 200)));
            }
            case "DELETE /subscriptions/{id}":
                return once(idempotencyKey, method, path, body, b -> b.unsubscribeAsync(id)
                        .thenApply(found -> found ? new ApiResponse(204, null) : ApiResponse.error(404, "no subscription " + id)));
            default:
                throw new IllegalStateException("route " + m.route(method) + " is listed but not handled");
        }
    }

    /**
     * Runs a mutating request on the leader, once per {@code Idempotency-Key} if one is given: a
     * repeat of the same method, path and body gets the first answer; another request under the
     * same key is refused with 422.
     */
    private CompletableFuture<ApiResponse> once(String key, String method, String path, byte[] body,
                                                Function<QosBroker, CompletableFuture<ApiResponse>> work) {
        String k = RequestLimits.idempotencyKey(key);
        QosBroker b = replica.leading();
        if (k == null) {
            return work.apply(b);
        }
        String fingerprint = fingerprint(method, path, body);
        return b.once(k, fingerprint, ManagementRoutes::answerOf, () -> work.apply(b),
                first -> first.fingerprint().equals(fingerprint) ? new ApiResponse(first.status(), first.body())
                        : ApiResponse.error(422, "Idempotency-Key '" + k + "' was used for another request;"
                        + " a new request needs a new key"));
    }

    /** What a request asked: its method, path and body bytes, hashed. */
    private static String fingerprint(String method, String path, byte[] body) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update((method + " " + path + "\n").getBytes(StandardCharsets.UTF_8));
            if (body != null) {
                d.update(body);
            }
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing", e); // every Java platform has it
        }
    }

    /** The answer a recorded change gives its request: what a repeat of the request gets too. */
    private static RememberedRequest.Answer answerOf(StateChange c) {
        if (c.variable() != null) {
            return new RememberedRequest.Answer(201, JSON.valueToTree(document(c.variable())));
        }
        if (c.putSubscription() != null) {
            return new RememberedRequest.Answer(c.newSubscription() ? 201 : 200,
                    JSON.valueToTree(document(c.putSubscription())));
        }
        return new RememberedRequest.Answer(204, null);
    }

    private static CompletableFuture<ApiResponse> declare(QosBroker b, RequestParser.Declaration d) {
        return b.declare(d.name(), d.router(), d.frameBytes(), d.intervalNanos(), d.serviceClass(),
                d.correlationGroup()).thenApply(v -> new ApiResponse(201, document(v)));
    }

    private static CompletableFuture<ApiResponse> subscribe(QosBroker b, RequestParser.SubscriptionOrder o) {
        return b.subscribe(o.variable(), o.subscriberRouter(), o.subscriberLink(), o.qos(), o.downstreamNanos(),
                o.minRestNanos()).thenApply(r -> answer(b, r, 201));
    }

    private static ApiResponse answer(QosBroker b, AdmissionResult r, int status) {
        if (r instanceof AdmissionResult.Rejected rejected) {
            int refused = rejected.uncarriable() ? 400 : rejected.reason().startsWith("no subscription ") ? 404 : 409;
            return ApiResponse.error(refused, rejected.reason());
        }
        long id = ((AdmissionResult.Admitted) r).subscriptionId();
        AdmittedSubscription s = b.subscription(id);
        // torn down by a request that came in meanwhile: the admission happened all the same
        return s == null ? new ApiResponse(status, java.util.Map.of("id", id)) : new ApiResponse(status, document(s));
    }

    private static CompletableFuture<ApiResponse> done(ApiResponse r) {
        return CompletableFuture.completedFuture(r);
    }

    static ApiResponse failure(Throwable t) {
        Throwable e = Failures.unwrap(t);
        if (e instanceof NotLeaderException n) {
            return new ApiResponse(503, new ErrorDocument(n.getMessage(), n.leaderApi().isEmpty() ? null : n.leaderApi()));
        }
        if (e instanceof FencedWriteException) {
            // ZooKeeper refused the write: certainly not made, and the replica that now leads may take it
            return ApiResponse.error(503, "not made: another broker replica has taken the lead (" + e.getMessage()
                    + "); send the request again");
        }
        if (e instanceof StoredButNotInstalledException) {
            return ApiResponse.error(500, e.getMessage());
        }
        if (e instanceof RequestParser.BadRequest || e instanceof IllegalArgumentException) {
            return ApiResponse.error(400, e.getMessage());
        }
        if (e instanceof BrokerStoppedException) {
            return ApiResponse.error(503, e.getMessage()); // not taken: safe to send to the next leader
        }
        // a change may or may not have been recorded: the client must look before retrying
        return ApiResponse.error(500, "internal error: " + e.getMessage());
    }

    static VariableDocument document(PublishedVariable v) {
        return new VariableDocument(v.name(), v.id(), v.router(), v.frameBytes(), null, v.intervalNanos(),
                v.serviceClass().name(), v.correlationGroup());
    }

    static SubscriptionDocument document(AdmittedSubscription s) {
        List<List<SubscriptionDocument.HopDocument>> paths = s.admitted().paths().stream()
                .map(p -> p.stream().map(h -> new SubscriptionDocument.HopDocument(h.router(), h.next(), h.budgetNanos())).toList())
                .toList();
        long after = s.downstreamNanos();
        long restAfter = s.minRestAfterNanos();
        return new SubscriptionDocument(s.id(), s.variableName().isEmpty() ? "#" + s.request().variable().value()
                : s.variableName(), s.request().subscriberRouter(), s.request().subscriberLink(),
                QosDocument.of(s.request().qos()), paths, after == 0 ? null : after / 1e6,
                restAfter == 0 ? null : restAfter / 1e6);
    }

    static Map<String, Object> topology(Topology t) {
        List<Map<String, Object>> routers = new ArrayList<>();
        for (RouterNode r : t.routers()) {
            routers.add(Map.of("id", r.id(), "capacityEventsPerSecond", r.forwardingCapacity(), "queueingNanos",
                    r.queueingBudgetNanos(),
                    "cloud", r.cloud()));
        }
        List<Map<String, Object>> links = new ArrayList<>();
        for (Link l : t.links()) {
            Map<String, Object> shares = new LinkedHashMap<>();
            l.sharePercent().forEach((c, p) -> shares.put(c.name(), p));
            links.add(Map.of("from", l.from().id(), "to", l.to().id(), "bandwidthBytesPerSecond", l.bandwidth(), "delayNanos",
                    l.delayNanos(), "sharePercent", shares));
        }
        return Map.of("routers", routers, "links", links);
    }

    private static List<Map<String, Object>> routers(QosBroker b) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (RouterNode r : b.topology().routers()) {
            ControlChannelServer.RouterSync s = b.control().sync(r.id());
            out.add(Map.of("id", r.id(), "connected", s.connected(), "unacknowledged", s.unacknowledged()));
        }
        return out;
    }

    private static List<Map<String, Object>> flows(QosBroker b) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map.Entry<String, List<InstallFlow>> e : b.flows().entrySet()) {
            for (InstallFlow f : e.getValue()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("router", e.getKey());
                m.put("flowId", f.spec().flowId());
                m.put("version", f.version());
                m.put("variableId", f.variableId());
                m.put("link", f.link());
                m.put("serviceClass", f.spec().serviceClass().name());
                m.put("assuredBytesPerSecond", f.spec().assuredRate());
                m.put("minimumBytesPerSecond", f.spec().minimumRate()); // MR: congestion control never lends below it
                m.put("ceilingBytesPerSecond", f.spec().ceilingRate());
                m.put("intervalsNanos", f.intervalsNanos());
                m.put("downstreamBudgetNanos", f.downstreamBudgetNanos());
                m.put("minRestDelayNanos", f.minRestDelayNanos());
                FlowReports.Latest latest = b.control().reports().latest(e.getKey(), f.spec().flowId());
                if (latest != null) {
                    ControlMessage.FlowSample s = latest.sample();
                    Map<String, Object> st = new LinkedHashMap<>();
                    st.put("reportedAtMillis", latest.timeMillis());
                    st.put("eventsSent", s.eventsSent());
                    st.put("bytesSent", s.bytesSent());
                    st.put("overflowDrops", s.overflowDrops());
                    st.put("deadlineMisses", s.deadlineMisses());
                    st.put("backlog", s.backlog());
                    st.put("arrivalBytesPerSecond", OperatorViews.bytesPerSecond(s.arrivalRate()));
                    st.put("departureBytesPerSecond", OperatorViews.bytesPerSecond(s.departureRate()));
                    st.put("demandBytesPerSecond", OperatorViews.bytesPerSecond(s.demand()));
                    st.put("state", FlowState.of(f.spec(), s.demand()).name());
                    st.put("assuredInForceBytesPerSecond", s.assuredRate()); // congestion control may move it
                    st.put("shortfallBytesPerSecond", s.shortfall());
                    st.put("heldRateHz", s.heldRateHz()); // a congestion hold in force (0: none)
                    // queueing at this flow's router (one hop), over the router's last report period; 0: nothing sent in it
                    st.put("latencyP99Micros", s.latencyP99Micros());
                    st.put("reassignments", s.reassignments()); // congestion control's rate moves, since the router started
                    m.put("statistics", st);
                }
                out.add(m);
            }
        }
        return out;
    }
}
