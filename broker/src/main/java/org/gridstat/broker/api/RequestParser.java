package org.gridstat.broker.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.management.DocumentFields;
import org.gridstat.core.management.SubscriptionDocument;
import org.gridstat.core.management.VariableDocument;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableName;

/**
 * Turns request bodies into validated orders. Whatever the bytes, the result is an order or a
 * {@link BadRequest} whose message lists every problem found; nothing else is thrown (fuzzed).
 */
final class RequestParser {
    private RequestParser() {
    }

    /** A body that is not the document expected, or whose values are out of range. */
    static final class BadRequest extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadRequest(String message) {
            super(message);
        }
    }

    record Declaration(String name, String router, int frameBytes, long intervalNanos, ServiceClass serviceClass,
                       String correlationGroup) {
    }

    record SubscriptionOrder(String variable, String subscriberRouter, String subscriberLink, QosSpec qos,
                             long downstreamNanos, long minRestNanos) {
    }

    /** The longest downstream budget or rest delay a segment may name: the longest latency bound. */
    private static final double MAX_DOWNSTREAM_MS = QosSpec.MAX_LATENCY_BOUND.toMillis();

    static Declaration declaration(byte[] body) {
        VariableDocument d = read(body, VariableDocument.class);
        List<String> problems = new ArrayList<>();
        DocumentFields.require(d.name(), "name", problems);
        DocumentFields.require(d.router(), "router", problems);
        DocumentFields.require(d.frameBytes(), "frameBytes", problems);
        if (d.id() != null) {
            problems.add("id is the broker's to give");
        }
        if (d.name() != null) {
            try {
                VariableName.of(d.name());
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
        }
        if (d.frameBytes() != null && (d.frameBytes() < 48 || d.frameBytes() > 1472)) {
            problems.add("frameBytes must be 48..1472, got " + d.frameBytes());
        }
        long interval = DocumentFields.interval(d.rateHz(), d.intervalNanos(), problems);
        ServiceClass c = d.serviceClass() == null ? ServiceClass.BE : DocumentFields.dataClass(d.serviceClass(), problems);
        if (!problems.isEmpty()) {
            throw new BadRequest(String.join("; ", problems));
        }
        return new Declaration(d.name(), d.router(), d.frameBytes(), interval, c,
                d.correlationGroup() == null ? "" : d.correlationGroup());
    }

    static SubscriptionOrder subscription(byte[] body) {
        SubscriptionDocument d = read(body, SubscriptionDocument.class);
        List<String> problems = new ArrayList<>();
        DocumentFields.require(d.variable(), "variable", problems);
        DocumentFields.require(d.subscriberRouter(), "subscriberRouter", problems);
        DocumentFields.require(d.subscriberLink(), "subscriberLink", problems);
        DocumentFields.require(d.qos(), "qos", problems);
        if (d.id() != null || d.paths() != null) {
            problems.add("id and paths are the broker's to give");
        }
        Double after = d.downstreamBudgetMs();
        if (after != null && !(after >= 0 && after <= MAX_DOWNSTREAM_MS)) {
            problems.add("downstreamBudgetMs must be 0.." + (long) MAX_DOWNSTREAM_MS + ", got " + after);
        }
        Double rest = d.minRestDelayMs();
        if (rest != null && !(rest >= 0 && rest <= MAX_DOWNSTREAM_MS)) {
            problems.add("minRestDelayMs must be 0.." + (long) MAX_DOWNSTREAM_MS + ", got " + rest);
        }
        if (!problems.isEmpty()) {
            throw new BadRequest(String.join("; ", problems));
        }
        return new SubscriptionOrder(d.variable(), d.subscriberRouter(), d.subscriberLink(), qos(d),
                after == null ? 0 : Math.round(after * 1e6), rest == null ? 0 : Math.round(rest * 1e6));
    }

    /** The new QoS of a modification: the body holds {@code qos} only. */
    static QosSpec modification(byte[] body, long id) {
        SubscriptionDocument d = read(body, SubscriptionDocument.class);
        if (d.qos() == null || d.variable() != null || d.subscriberRouter() != null || d.subscriberLink() != null
                || d.paths() != null || d.downstreamBudgetMs() != null || d.minRestDelayMs() != null
                || d.id() != null && d.id() != id) {
            throw new BadRequest("a modification gives the new qos only");
        }
        return qos(d);
    }

    private static QosSpec qos(SubscriptionDocument d) {
        try {
            return d.qos().toSpec();
        } catch (IllegalArgumentException e) {
            throw new BadRequest(e.getMessage());
        }
    }

    private static <T> T read(byte[] body, Class<T> type) {
        if (body == null || body.length == 0) {
            throw new BadRequest("a JSON body is required");
        }
        try {
            T value = ManagementRoutes.JSON.readValue(body, type);
            if (value == null) {
                throw new BadRequest("a JSON object is required, got null");
            }
            return value;
        } catch (UnrecognizedPropertyException e) {
            throw new BadRequest("unknown field '" + e.getPropertyName() + "'");
        } catch (JsonProcessingException e) {
            throw new BadRequest("malformed JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new BadRequest("unreadable body: " + e.getMessage());
        }
    }
}
