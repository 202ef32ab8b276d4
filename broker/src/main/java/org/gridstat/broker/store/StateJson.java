package org.gridstat.broker.store;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.admission.SubscriptionRequest;
import org.gridstat.broker.catalog.PublishedVariable;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;

/**
 * The JSON documents the broker keeps in ZooKeeper (layout in {@code docs/broker-state.md}). Each
 * carries a schema version; unknown fields are an error, so a document written by a newer broker
 * is refused rather than half read.
 */
public final class StateJson {
    public static final int SCHEMA = 1;
    static final ObjectMapper MAPPER = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private StateJson() {
    }

    /** A QoS spec as stored. */
    public record Qos(long intervalNanos, long latencyBoundNanos, int paths, ServiceClass serviceClass,
                      String correlationGroup) {
        static Qos of(QosSpec q) {
            return new Qos(q.intervalNanos(), q.latencyBoundNanos(), q.paths(), q.serviceClass(), q.correlationGroup());
        }

        QosSpec toSpec() {
            return QosSpec.builder().interval(Duration.ofNanos(intervalNanos)).latencyBound(Duration.ofNanos(latencyBoundNanos))
                    .paths(paths).serviceClass(serviceClass).correlationGroup(correlationGroup).build();
        }
    }

    /** A subscription as stored. */
    public record Subscription(int schema, long id, String variable, long variableId, String publisherRouter,
                               String subscriberRouter, String subscriberLink, int frameBytes, long publisherIntervalNanos,
                               Qos qos, List<List<AdmissionResult.Hop>> paths, List<Long> flowIds) {
    }

    /** A variable as stored. */
    public record Variable(int schema, String name, long id, String router, int frameBytes, long intervalNanos,
                           ServiceClass serviceClass, String correlationGroup) {
    }

    /** A remembered request as stored. */
    public record Request(int schema, String key, String fingerprint, int status, com.fasterxml.jackson.databind.JsonNode body) {
    }

    public static byte[] encode(RememberedRequest r) {
        return write(new Request(SCHEMA, r.key(), r.fingerprint(), r.status(), r.body()));
    }

    public static RememberedRequest decodeRequest(byte[] json) {
        Request r = read(json, Request.class);
        return new RememberedRequest(r.key(), r.fingerprint(), r.status(),
                r.body() == null || r.body().isNull() ? null : r.body());
    }

    public static byte[] encode(AdmittedSubscription s) {
        SubscriptionRequest r = s.request();
        return write(new Subscription(SCHEMA, r.subscriptionId(), s.variableName(), r.variable().value(),
                r.publisherRouter(), r.subscriberRouter(), r.subscriberLink(), r.frameBytes(),
                r.publisherIntervalNanos(), Qos.of(r.qos()), s.admitted().paths(), s.flowIds()));
    }

    public static AdmittedSubscription decodeSubscription(byte[] json) {
        Subscription s = read(json, Subscription.class);
        SubscriptionRequest r = new SubscriptionRequest(s.id(), VariableId.of(s.variableId()), s.publisherRouter(),
                s.subscriberRouter(), s.frameBytes(), s.qos().toSpec(), s.subscriberLink(), s.publisherIntervalNanos());
        return new AdmittedSubscription(r, s.variable(), new AdmissionResult.Admitted(s.id(), s.paths()), s.flowIds());
    }

    public static byte[] encode(PublishedVariable v) {
        return write(new Variable(SCHEMA, v.name(), v.id(), v.router(), v.frameBytes(), v.intervalNanos(),
                v.serviceClass(), v.correlationGroup()));
    }

    public static PublishedVariable decodeVariable(byte[] json) {
        Variable v = read(json, Variable.class);
        return new PublishedVariable(v.name(), v.id(), v.router(), v.frameBytes(), v.intervalNanos(), v.serviceClass(),
                v.correlationGroup());
    }

    static byte[] write(Object o) {
        try {
            return MAPPER.writeValueAsBytes(o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static <T> T read(byte[] json, Class<T> type) {
        T value;
        try {
            value = MAPPER.readValue(json, type);
        } catch (IOException e) {
            throw new IllegalArgumentException("unreadable " + type.getSimpleName().toLowerCase() + " document: "
                    + (e instanceof com.fasterxml.jackson.core.JsonProcessingException j ? j.getOriginalMessage() : e.getMessage()), e);
        }
        int schema = value instanceof Subscription s ? s.schema() : value instanceof Request r ? r.schema()
                : ((Variable) value).schema();
        if (schema != SCHEMA) {
            throw new IllegalArgumentException(type.getSimpleName().toLowerCase() + " document has schema " + schema
                    + "; this broker reads schema " + SCHEMA);
        }
        return value;
    }
}
