package org.gridstat.broker.catalog;

import java.util.Objects;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableName;

/**
 * A status variable a publisher has declared: its name and the id its events carry, the router
 * it is published at, the frame size, the publisher's interval, its class and correlation group.
 */
public record PublishedVariable(String name, long id, String router, int frameBytes, long intervalNanos,
                                ServiceClass serviceClass, String correlationGroup) {
    public PublishedVariable {
        VariableName.of(name);
        Objects.requireNonNull(router, "router");
        Objects.requireNonNull(serviceClass, "service class");
        Objects.requireNonNull(correlationGroup, "correlation group");
        if (id <= 0) {
            throw new IllegalArgumentException("variable id must be positive, got " + id);
        }
        if (frameBytes < 48 || frameBytes > 1472) {
            throw new IllegalArgumentException("frame size must be 48..1472 bytes, got " + frameBytes);
        }
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("publishing interval must be positive");
        }
        if (serviceClass == ServiceClass.CONTROL) {
            throw new IllegalArgumentException("the CONTROL class is reserved for the control channel");
        }
    }

    /** Whether this is the same declaration under another id. */
    boolean sameAs(PublishedVariable o) {
        return name.equals(o.name) && router.equals(o.router) && frameBytes == o.frameBytes
                && intervalNanos == o.intervalNanos && serviceClass == o.serviceClass
                && correlationGroup.equals(o.correlationGroup);
    }
}
