package org.gridstat.client;

import java.time.Duration;
import java.util.Objects;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableName;

/**
 * What a publisher tells the broker about a variable before subscribers can ask for it: its name,
 * the router it publishes at, the size of its frames in bytes (48-byte header plus payload), how
 * often it publishes, its class and, optionally, its correlation group.
 */
public record VariableDeclaration(String name, String router, int frameBytes, Duration interval,
                                  ServiceClass serviceClass, String correlationGroup) {
    public VariableDeclaration {
        VariableName.of(name);
        Objects.requireNonNull(router, "router");
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(serviceClass, "service class");
        Objects.requireNonNull(correlationGroup, "correlation group");
    }

    /** A declaration without a correlation group. */
    public static VariableDeclaration of(String name, String router, int frameBytes, Duration interval,
                                         ServiceClass serviceClass) {
        return new VariableDeclaration(name, router, frameBytes, interval, serviceClass, "");
    }

    public VariableDeclaration withCorrelationGroup(String group) {
        return new VariableDeclaration(name, router, frameBytes, interval, serviceClass, group);
    }
}
