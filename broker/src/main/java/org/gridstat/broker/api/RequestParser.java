package org.gridstat.broker.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.gridstat.core.management.DocumentFields;
import org.gridstat.core.management.QosDocument;
import org.gridstat.core.management.SubscriptionDocument;
import org.gridstat.core.management.VariableDocument;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableName;

/**
 * Turns request bodies into validated orders. Whatever the bytes, the result is an order or a
 * {@link BadRequest} whose message lists every problem found; nothing else is thrown (fuzzed).
 * JSON types are strict: {@code "56"} is not a number, {@code 56} not a string.
 */
final class RequestParser {
    /** Reads request bodies: unknown fields and every scalar coercion refused. */
    static final ObjectMapper STRICT = strict();

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

    /** The QoS fields a modification gives; {@code null} ones keep their value. */
    record QosChange(Long intervalNanos, Long latencyBoundNanos, Integer paths, ServiceClass serviceClass,
                     String correlationGroup) {
        /**
         * The current spec with the given fields replaced.
         *
         * @throws IllegalArgumentException if the result is not a valid spec
         */
        QosSpec applyTo(QosSpec current) {
            return QosSpec.builder()
                    .interval(Duration.ofNanos(intervalNanos != null ? intervalNanos : current.intervalNanos()))
                    .latencyBound(Duration.ofNanos(latencyBoundNanos != null ? latencyBoundNanos : current.latencyBoundNanos()))
                    .paths(paths != null ? paths : current.paths())
                    .serviceClass(serviceClass != null ? serviceClass : current.serviceClass())
                    .correlationGroup(correlationGroup != null ? correlationGroup : current.correlationGroup()).build();
        }
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
        variableName(d.name(), problems);
        RequestLimits.name(d.router(), "router", problems);
        RequestLimits.frameBytes(d.frameBytes(), problems);
        int before = problems.size();
        long interval = DocumentFields.interval(d.rateHz(), d.intervalNanos(), problems);
        if (problems.size() == before) {
            RequestLimits.publisherInterval(interval, problems);
        }
        ServiceClass c = d.serviceClass() == null ? ServiceClass.BE : DocumentFields.dataClass(d.serviceClass(), problems);
        correlationGroup(d.correlationGroup(), problems);
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
        variableName(d.variable(), problems);
        RequestLimits.name(d.subscriberRouter(), "subscriberRouter", problems);
        RequestLimits.name(d.subscriberLink(), "subscriberLink", problems);
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

    /**
     * The QoS fields a modification changes: the body holds {@code qos} only, and in it the fields
     * to change; the others keep their value.
     */
    static QosChange modification(byte[] body, long id) {
        SubscriptionDocument d = read(body, SubscriptionDocument.class);
        if (d.qos() == null || d.variable() != null || d.subscriberRouter() != null || d.subscriberLink() != null
                || d.paths() != null || d.downstreamBudgetMs() != null || d.minRestDelayMs() != null
                || d.id() != null && d.id() != id) {
            throw new BadRequest("a modification gives the new qos only");
        }
        QosDocument q = d.qos();
        if (q.rateHz() == null && q.intervalNanos() == null && q.latencyBoundMs() == null && q.paths() == null
                && q.serviceClass() == null && q.correlationGroup() == null) {
            throw new BadRequest("the modification gives no qos field to change");
        }
        List<String> problems = new ArrayList<>();
        Long interval = q.rateHz() == null && q.intervalNanos() == null ? null
                : DocumentFields.interval(q.rateHz(), q.intervalNanos(), problems);
        Long bound = null;
        if (q.latencyBoundMs() != null) {
            if (!(q.latencyBoundMs() > 0) || q.latencyBoundMs().isInfinite()) {
                problems.add("latencyBoundMs must be a positive number of milliseconds");
            } else {
                bound = Math.round(q.latencyBoundMs() * 1e6);
            }
        }
        ServiceClass c = q.serviceClass() == null ? null : DocumentFields.dataClass(q.serviceClass(), problems);
        correlationGroup(q.correlationGroup(), problems);
        if (!problems.isEmpty()) {
            throw new BadRequest("invalid QoS specification: " + String.join("; ", problems));
        }
        return new QosChange(interval, bound, q.paths(), c, q.correlationGroup());
    }

    private static void variableName(String name, List<String> problems) {
        if (name != null) {
            try {
                VariableName.of(name);
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
        }
    }

    private static void correlationGroup(String group, List<String> problems) {
        if (group != null && !QosSpec.isCorrelationGroup(group)) {
            problems.add("correlationGroup may hold at most 128 letters, digits, '_', '-', '.' and '/'");
        }
    }

    private static QosSpec qos(SubscriptionDocument d) {
        try {
            return d.qos().toSpec();
        } catch (IllegalArgumentException e) {
            throw new BadRequest(e.getMessage());
        }
    }

    static <T> T read(byte[] body, Class<T> type) {
        if (body == null || body.length == 0) {
            throw new BadRequest("a JSON body is required");
        }
        JsonNode tree = null;
        try {
            tree = STRICT.readTree(body);
            if (tree == null || tree.isNull() || tree.isMissingNode()) {
                throw new BadRequest("a JSON object is required, got null");
            }
            return STRICT.treeToValue(tree, type);
        } catch (UnrecognizedPropertyException e) {
            throw new BadRequest("unknown field '" + e.getPropertyName() + "'");
        } catch (MismatchedInputException e) {
            throw new BadRequest(mismatch(e, tree));
        } catch (JsonProcessingException e) {
            throw new BadRequest("malformed JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new BadRequest("unreadable body: " + e.getMessage());
        }
    }

    /** "field 'qos.rateHz' must be a number, got a string", or what Jackson says where no field is named. */
    private static String mismatch(MismatchedInputException e, JsonNode tree) {
        String field = e.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
        JsonNode given = tree;
        for (JsonMappingException.Reference r : e.getPath()) {
            given = given == null ? null : r.getFieldName() != null ? given.get(r.getFieldName()) : given.get(r.getIndex());
        }
        Class<?> target = e.getTargetType();
        if (field.isEmpty() || target == null) {
            return "malformed JSON: " + e.getOriginalMessage();
        }
        String expected = target == Integer.class || target == Long.class || target == int.class || target == long.class
                ? "a whole number" : target == Double.class || target == double.class ? "a number"
                : target == String.class ? "a string" : target.isRecord() ? "an object"
                : List.class.isAssignableFrom(target) ? "a list" : "a " + target.getSimpleName();
        return "field '" + field + "' must be " + expected + ", got " + kind(given);
    }

    private static String kind(JsonNode n) {
        if (n == null) {
            return "something else";
        }
        return switch (n.getNodeType()) {
            case STRING -> "a string";
            case NUMBER -> n.isIntegralNumber() ? "a number" : "a fraction";
            case BOOLEAN -> "a boolean";
            case ARRAY -> "a list";
            case OBJECT -> "an object";
            case NULL -> "null";
            default -> "something else";
        };
    }

    private static ObjectMapper strict() {
        JsonMapper m = JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS).build();
        for (LogicalType t : new LogicalType[] {LogicalType.Integer, LogicalType.Float, LogicalType.Boolean}) {
            m.coercionConfigFor(t).setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
        }
        m.coercionConfigFor(LogicalType.Textual).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        m.coercionConfigFor(LogicalType.Integer).setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
        m.coercionConfigFor(LogicalType.Float).setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        return m;
    }
}
