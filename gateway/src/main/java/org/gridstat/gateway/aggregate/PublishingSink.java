package org.gridstat.gateway.aggregate;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntFunction;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.model.VariableName;
import org.gridstat.core.wire.WireFormat;

/**
 * Publishes each region's aggregates as one status variable, {@code PREFIX/region-N} unless
 * named otherwise, stamped with the interval's start. A region's publication is made (and
 * declared) at its first aggregate; the aggregator's region bound bounds them.
 */
public final class PublishingSink implements AggregateSink {
    /**
     * Where a region's variable is declared (the broker), without blocking; the ingest's
     * {@code Declarations::declare} fits.
     */
    @FunctionalInterface
    public interface Declare {
        /** Declares nothing: variables are published under their derived ids only. */
        Declare NONE = (name, frameBytes, interval, serviceClass) -> { };

        void declare(String name, int frameBytes, Duration interval, ServiceClass serviceClass);
    }

    private final Publisher publisher;
    private final IntFunction<String> names;
    private final ServiceClass serviceClass;
    private final Duration latencyBound;
    private final Duration interval;
    private final Declare declarations;
    private final Map<Integer, Publication> publications = new HashMap<>();
    private long published;
    private long notSent;

    /**
     * @param names a region id's variable name; {@link #regionNames} gives the default
     * @param interval the aggregation interval: the variable's publication interval
     */
    public PublishingSink(Publisher publisher, IntFunction<String> names, ServiceClass serviceClass, Duration latencyBound,
                          Duration interval, Declare declarations) {
        this.publisher = Objects.requireNonNull(publisher, "publisher");
        this.names = Objects.requireNonNull(names, "names");
        this.serviceClass = Objects.requireNonNull(serviceClass, "serviceClass");
        this.latencyBound = latencyBound;
        this.interval = Objects.requireNonNull(interval, "interval");
        this.declarations = Objects.requireNonNull(declarations, "declarations");
    }

    /** {@code PREFIX/region-N}, or the name given for N. */
    public static IntFunction<String> regionNames(String prefix, Map<Integer, String> overrides) {
        VariableName.of(prefix);
        Map<Integer, String> named = Map.copyOf(overrides);
        named.values().forEach(VariableName::of);
        return region -> named.getOrDefault(region, prefix + "/region-" + region);
    }

    @Override
    public void emit(int regionId, long intervalStartNanos, byte[] payload, int offset, int length) {
        Publication p = publications.get(regionId);
        if (p == null) {
            String name = names.apply(regionId);
            p = publisher.publication(VariableId.ofName(VariableName.of(name)), serviceClass, latencyBound, interval);
            publications.put(regionId, p);
            declarations.declare(name, WireFormat.HEADER_LENGTH + WireFormat.MAX_PAYLOAD_LENGTH, interval, serviceClass);
        }
        if (p.publish(payload, offset, length, intervalStartNanos)) {
            published++;
        } else {
            notSent++;
        }
    }

    /** Aggregates handed to the network. */
    public long published() {
        return published;
    }

    /** Aggregates the publisher did not send (held by congestion advice, or a send failure it counted). */
    public long notSent() {
        return notSent;
    }
}
