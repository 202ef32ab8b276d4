package org.gridstat.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.gridstat.core.management.QosDocument;
import org.gridstat.core.management.SubscriptionDocument;
import org.gridstat.core.management.VariableDocument;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;

/**
 * A connection to a QoS broker's management API (HTTP/JSON, {@code docs/management-api.md}),
 * given the API addresses of its replicas. Requests go to the leader: a standby's answer names it,
 * and an unreachable replica makes way for the next (one that does not answer in time fails that
 * request, and the next request asks the next replica). While no replica leads (a failover), requests
 * are retried until {@link #failoverWait} has passed. A request that changes something carries an
 * {@code Idempotency-Key} made for the call, and only a request carrying one is sent again after
 * a lost connection: if the first try was made and its answer lost, the broker answers the repeat
 * with the first answer instead of making it twice. Thread-safe.
 *
 * <pre>{@code
 * BrokerConnection broker = BrokerConnection.connect(URI.create("http://127.0.0.1:8470"));
 * DeclaredVariable freq = broker.declare(VariableDeclaration.of("utilityA/sub1/pmu1/freq", "r1", 64,
 *         Duration.ofNanos(16_666_667), ServiceClass.HRT));
 * try {
 *     BrokerSubscription s = broker.subscribe(freq.name(), "r4", "control-center",
 *             QosSpec.builder().rateHz(30).latencyBound(Duration.ofMillis(50)).paths(2)
 *                     .serviceClass(ServiceClass.HRT).build());
 *     ...
 *     broker.unsubscribe(s.id());
 * } catch (SubscriptionRejectedException e) {
 *     System.err.println(e.reason()); // e.g. "link r3->r7 class HRT: needs 41.6 kbit/s, 12.0 kbit/s free"
 * }
 * }</pre>
 */
public final class BrokerConnection {
    private static final String API = "/api/v1";
    /** The header naming a request so that the broker makes it once. */
    public static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);

    /**
     * The largest answer read by default, 16 MiB: far above what a broker answers (its flows at a
     * thousand flows are about 0.6 MB), and a bound on what a broker, or whatever answers in its
     * place, can make a client hold.
     */
    public static final long DEFAULT_MAX_ANSWER_BYTES = 16L * 1024 * 1024;

    private final List<URI> replicas;
    private final HttpClient http;
    private final Duration requestTimeout;
    private final Duration failoverWait;
    private final long maxAnswerBytes;
    private volatile URI leader;

    /** A broker's answer: HTTP status and body (JSON, or YAML for the OpenAPI file). */
    public record Answer(int status, String body) {
    }

    private BrokerConnection(List<URI> replicas, Duration requestTimeout, Duration failoverWait, long maxAnswerBytes,
                             HttpClient http) {
        this.replicas = List.copyOf(replicas);
        this.requestTimeout = requestTimeout;
        this.failoverWait = failoverWait;
        this.maxAnswerBytes = maxAnswerBytes;
        this.http = http;
        this.leader = replicas.get(0);
    }

    /**
     * The same connection reading answers of at most {@code bytes} (default
     * {@link #DEFAULT_MAX_ANSWER_BYTES}): a longer one is not read, and the request fails with a
     * {@link BrokerException} saying so.
     */
    public BrokerConnection withMaxAnswerBytes(long bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("the largest answer must be at least 1 byte, got " + bytes);
        }
        return new BrokerConnection(replicas, requestTimeout, failoverWait, bytes, http);
    }

    /**
     * A connection to the broker whose replicas serve their API at these addresses (for example
     * {@code http://127.0.0.1:8470}); 10 s per request, up to 15 s waiting out a failover.
     */
    public static BrokerConnection connect(URI... replicas) {
        return connect(List.of(replicas), Duration.ofSeconds(10), Duration.ofSeconds(15));
    }

    public static BrokerConnection connect(List<URI> replicas, Duration requestTimeout, Duration failoverWait) {
        if (replicas.isEmpty()) {
            throw new IllegalArgumentException("no broker address given");
        }
        for (URI u : replicas) {
            if (!"http".equals(u.getScheme()) || u.getHost() == null) {
                throw new IllegalArgumentException("broker address must be http://host:port, got " + u);
            }
        }
        return new BrokerConnection(replicas, Objects.requireNonNull(requestTimeout), Objects.requireNonNull(failoverWait),
                DEFAULT_MAX_ANSWER_BYTES, HttpClient.newBuilder().connectTimeout(requestTimeout).build());
    }

    /** Declares a published variable and returns it with the id its events must carry. */
    public DeclaredVariable declare(VariableDeclaration d) {
        VariableDocument doc = new VariableDocument(d.name(), null, d.router(), d.frameBytes(), null,
                d.interval().toNanos(), d.serviceClass().name(), d.correlationGroup());
        Answer a = require(request("POST", "/variables", write(doc)), 201);
        return variable(read(a.body(), VariableDocument.class));
    }

    private static DeclaredVariable variable(VariableDocument v) {
        return new DeclaredVariable(v.name(), VariableId.of(v.id()), v.router(), v.frameBytes(),
                Duration.ofNanos(v.intervalNanos()), ServiceClass.valueOf(v.serviceClass()), v.correlationGroup());
    }

    /**
     * Asks for a subscription to a declared variable, delivered at {@code subscriberRouter} over
     * its out-link {@code subscriberLink}.
     *
     * @throws SubscriptionRejectedException if the broker cannot admit it, with the reason
     */
    public BrokerSubscription subscribe(String variable, String subscriberRouter, String subscriberLink, QosSpec qos)
            throws SubscriptionRejectedException {
        return subscribe(variable, subscriberRouter, subscriberLink, qos, Duration.ZERO);
    }

    /**
     * The same for a segment of a longer path: {@code downstreamBudget} is the budget of the path
     * after the subscriber router's out-link (what a parent broker gives the clouds before the last).
     *
     * @throws SubscriptionRejectedException if the broker cannot admit it, with the reason
     */
    public BrokerSubscription subscribe(String variable, String subscriberRouter, String subscriberLink, QosSpec qos,
                                        Duration downstreamBudget) throws SubscriptionRejectedException {
        return subscribe(variable, subscriberRouter, subscriberLink, qos, downstreamBudget, Duration.ZERO);
    }

    /**
     * The same with {@code minRestDelay}, the least delay of the path from the subscriber router's
     * out-link on (propagation and transmission, no queueing), as far as the caller knows it: the
     * broker adds it to each hop's least rest-of-path delay, so routers drop an event only once it
     * can no longer reach the end of the longer path in time.
     *
     * @throws SubscriptionRejectedException if the broker cannot admit it, with the reason
     */
    public BrokerSubscription subscribe(String variable, String subscriberRouter, String subscriberLink, QosSpec qos,
                                        Duration downstreamBudget, Duration minRestDelay)
            throws SubscriptionRejectedException {
        return subscribe(variable, subscriberRouter, subscriberLink, qos, downstreamBudget, minRestDelay,
                UUID.randomUUID().toString());
    }

    /**
     * The same under the caller's {@code idempotencyKey} (1..128 of {@code [A-Za-z0-9._:-]}): the
     * same request sent again with the same key, by this process or another, is answered with the
     * first answer while the broker remembers the key (its last 1,000 changes), and not made twice.
     *
     * @throws SubscriptionRejectedException if the broker cannot admit it, with the reason
     */
    public BrokerSubscription subscribe(String variable, String subscriberRouter, String subscriberLink, QosSpec qos,
                                        Duration downstreamBudget, Duration minRestDelay, String idempotencyKey)
            throws SubscriptionRejectedException {
        SubscriptionDocument doc = new SubscriptionDocument(null, variable, subscriberRouter, subscriberLink,
                QosDocument.of(qos).withoutRate(), null,
                downstreamBudget.isZero() ? null : downstreamBudget.toNanos() / 1e6,
                minRestDelay.isZero() ? null : minRestDelay.toNanos() / 1e6);
        return subscription(admission(request("POST", "/subscriptions", write(doc), Objects.requireNonNull(idempotencyKey)),
                201));
    }

    /**
     * Changes a subscription's QoS; if the new QoS cannot be admitted the subscription stays as it was.
     *
     * @throws SubscriptionRejectedException with the reason, if the change cannot be admitted or the subscription is gone
     */
    public BrokerSubscription modify(long id, QosSpec qos) throws SubscriptionRejectedException {
        SubscriptionDocument doc = new SubscriptionDocument(null, null, null, null, QosDocument.of(qos).withoutRate(), null);
        return subscription(admission(request("PUT", "/subscriptions/" + id, write(doc)), 200));
    }

    /** Cancels a subscription and frees its reservations; false if the broker does not know it. */
    public boolean unsubscribe(long id) {
        return unsubscribe(id, UUID.randomUUID().toString());
    }

    /** The same under the caller's {@code idempotencyKey}: a repeat is answered as the first was. */
    public boolean unsubscribe(long id, String idempotencyKey) {
        Answer a = request("DELETE", "/subscriptions/" + id, null, Objects.requireNonNull(idempotencyKey));
        if (a.status() == 404) {
            return false;
        }
        require(a, 204);
        return true;
    }

    /** The variables declared to the broker. */
    public List<DeclaredVariable> variables() {
        Answer a = require(request("GET", "/variables", null), 200);
        List<DeclaredVariable> out = new ArrayList<>();
        try {
            for (JsonNode n : JSON.readTree(a.body())) {
                out.add(variable(JSON.treeToValue(n, VariableDocument.class)));
            }
        } catch (IOException e) {
            throw new BrokerException("unreadable answer from the broker: " + e.getMessage(), e);
        }
        return out;
    }

    /** The broker's subscriptions. */
    public List<BrokerSubscription> subscriptions() {
        Answer a = require(request("GET", "/subscriptions", null), 200);
        List<BrokerSubscription> out = new ArrayList<>();
        try {
            for (JsonNode n : JSON.readTree(a.body())) {
                out.add(subscription(JSON.treeToValue(n, SubscriptionDocument.class)));
            }
        } catch (IOException e) {
            throw new BrokerException("unreadable answer from the broker: " + e.getMessage(), e);
        }
        return out;
    }

    /**
     * Sends a request to the leader as it is, for tools: {@code path} is relative to
     * {@code /api/v1}, {@code json} may be null. A request other than GET gets a new idempotency key.
     */
    public Answer request(String method, String path, String json) {
        return request(method, path, json, "GET".equals(method) ? null : UUID.randomUUID().toString());
    }

    /**
     * The same with the idempotency key given ({@code null}: none). A request without a key is
     * sent again after a lost connection only if it is a GET.
     */
    public Answer request(String method, String path, String json, String idempotencyKey) {
        boolean mayRepeat = idempotencyKey != null || "GET".equals(method);
        long deadline = System.nanoTime() + failoverWait.toNanos();
        String lastProblem = "";
        int tried = 0;
        int redirects = 0;
        while (true) {
            URI target = leader;
            try {
                HttpRequest.Builder b = HttpRequest.newBuilder(target.resolve(API + path)).timeout(requestTimeout)
                        .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(json));
                if (json != null) {
                    b.header("Content-Type", "application/json");
                }
                if (idempotencyKey != null) {
                    b.header(IDEMPOTENCY_KEY, idempotencyKey);
                }
                HttpResponse<String> r = http.send(b.build(), info -> new BoundedBody(maxAnswerBytes, info));
                if (r.statusCode() != 503) {
                    return new Answer(r.statusCode(), r.body());
                }
                lastProblem = error(r.body());
                URI named = leaderNamed(field(r.body(), "leader"));
                // a standby named the leader: ask it at once, but replicas naming each other in a
                // ring are asked in turn like the others, within the deadline and with its pauses
                if (named != null && !named.equals(target) && redirects++ <= replicas.size()) {
                    leader = named;
                    continue;
                }
                if (named == null && field(r.body(), "leader") != null) {
                    lastProblem += " (its leader address '" + field(r.body(), "leader") + "' is not http://host:port)";
                }
            } catch (HttpTimeoutException e) {
                // a replica that does not answer in time (hung, or its machine gone without a word) is
                // not asked first again: the next request goes to the next replica, which may lead now
                leader = replicas.get((replicas.indexOf(target) + 1) % replicas.size());
                throw new BrokerException("broker " + target + " did not answer " + method + " " + path + " within "
                        + requestTimeout.toMillis() + " ms", e);
            } catch (ConnectException e) {
                lastProblem = "cannot reach " + target + ": " + e.getMessage();
            } catch (IOException e) {
                if (BoundedBody.tooLarge(e) != null) {
                    // the request was answered, at a length this client does not hold: asking again gets the same
                    throw new BrokerException("broker " + target + " answered " + method + " " + path + " with "
                            + BoundedBody.tooLarge(e).getMessage(), e);
                }
                if (!mayRepeat) {
                    // the request may have been made: sending it again could make it twice
                    throw new BrokerException("talking to " + target + " about " + method + " " + path
                            + ", the connection failed; the request may or may not have been made: " + e, e);
                }
                lastProblem = "talking to " + target + ": " + e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BrokerException("interrupted talking to the broker", e);
            } catch (IllegalArgumentException e) { // an address no request can go to
                lastProblem = "cannot ask " + target + ": " + e.getMessage();
            }
            leader = replicas.get(++tried % replicas.size()); // try the next replica
            if (System.nanoTime() > deadline) {
                throw new BrokerException(503, "no broker replica leads: " + lastProblem);
            }
            if (tried % replicas.size() == 0) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new BrokerException("interrupted waiting for a broker leader", e);
                }
            }
        }
    }

    /**
     * The leader a standby's 503 names, if it is an address a request can go to: http, a host that
     * is not a wildcard (a broker bound to 0.0.0.0 or :: advertises that), a port; else {@code null}.
     */
    static URI leaderNamed(String named) {
        if (named == null || named.isEmpty()) {
            return null;
        }
        try {
            URI u = new URI(named);
            String host = u.getHost();
            if (!"http".equals(u.getScheme()) || host == null || u.getPort() <= 0) {
                return null;
            }
            String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
            if (bare.equals("0.0.0.0") || bare.equals("::") || bare.equals("0:0:0:0:0:0:0:0")) {
                return null;
            }
            return u;
        } catch (java.net.URISyntaxException e) {
            return null;
        }
    }

    private static SubscriptionDocument admission(Answer a, int expected) throws SubscriptionRejectedException {
        if (a.status() == 409 || a.status() == 404) {
            throw new SubscriptionRejectedException(error(a.body()));
        }
        return read(require(a, expected).body(), SubscriptionDocument.class);
    }

    private static BrokerSubscription subscription(SubscriptionDocument d) {
        List<List<String>> paths = d.paths().stream().map(p -> p.stream().map(SubscriptionDocument.HopDocument::router)
                .toList()).toList();
        return new BrokerSubscription(d.id(), d.variable(), d.subscriberRouter(), d.subscriberLink(), d.qos().withoutRate().toSpec(),
                paths);
    }

    private static Answer require(Answer a, int status) {
        if (a.status() != status) {
            throw new BrokerException(a.status(), "broker answered " + a.status() + ": " + error(a.body()));
        }
        return a;
    }

    private static String error(String body) {
        String e = field(body, "error");
        return e == null ? body : e;
    }

    private static String field(String body, String name) {
        try {
            JsonNode n = JSON.readTree(body).get(name);
            return n == null || n.isNull() ? null : n.asText();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static String write(Object o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static <T> T read(String body, Class<T> type) {
        try {
            return JSON.readValue(body, type);
        } catch (IOException e) {
            throw new BrokerException("unreadable answer from the broker: " + e.getMessage(), e);
        }
    }

    /**
     * An answer's body as text, read only up to {@code max} bytes: past it the body is no longer
     * read (the exchange is cancelled) and the answer fails with {@link TooLarge}. The text is
     * decoded with the charset the answer names, UTF-8 if none.
     */
    static final class BoundedBody implements HttpResponse.BodySubscriber<String> {
        /** An answer longer than the client reads. */
        static final class TooLarge extends IOException {
            private static final long serialVersionUID = 1L;

            TooLarge(long max) {
                super("an answer over " + max + " bytes, more than this client reads (BrokerConnection.withMaxAnswerBytes)");
            }
        }

        private final long max;
        private final java.nio.charset.Charset charset;
        private final java.util.concurrent.CompletableFuture<String> body = new java.util.concurrent.CompletableFuture<>();
        private final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        private java.util.concurrent.Flow.Subscription subscription;

        BoundedBody(long max, HttpResponse.ResponseInfo info) {
            this.max = max;
            this.charset = charsetOf(info.headers().firstValue("Content-Type").orElse(""));
        }

        /** The {@link TooLarge} among an exception's causes, or {@code null}. */
        static TooLarge tooLarge(Throwable t) {
            for (Throwable c = t; c != null; c = c.getCause()) {
                if (c instanceof TooLarge tl) {
                    return tl;
                }
            }
            return null;
        }

        private static java.nio.charset.Charset charsetOf(String contentType) {
            for (String part : contentType.split(";")) {
                String p = part.strip();
                if (p.regionMatches(true, 0, "charset=", 0, 8)) {
                    try {
                        return java.nio.charset.Charset.forName(p.substring(8).replace("\"", "").strip());
                    } catch (IllegalArgumentException e) {
                        break;
                    }
                }
            }
            return java.nio.charset.StandardCharsets.UTF_8;
        }

        @Override
        public java.util.concurrent.CompletionStage<String> getBody() {
            return body;
        }

        @Override
        public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<java.nio.ByteBuffer> items) {
            if (body.isDone()) {
                return;
            }
            for (java.nio.ByteBuffer b : items) {
                if (bytes.size() + (long) b.remaining() > max) {
                    subscription.cancel();
                    body.completeExceptionally(new TooLarge(max));
                    return;
                }
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                bytes.writeBytes(chunk);
            }
        }

        @Override
        public void onError(Throwable t) {
            body.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            body.complete(bytes.toString(charset));
        }
    }
}
