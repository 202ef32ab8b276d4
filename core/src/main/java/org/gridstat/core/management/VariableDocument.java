package org.gridstat.core.management;

/**
 * A published variable: its name, the id the broker gave it (absent when declaring), the router it
 * is published at, the frame size in bytes, the publisher's rate ({@code rateHz} or
 * {@code intervalNanos}), its class and correlation group.
 */
public record VariableDocument(String name, Long id, String router, Integer frameBytes, Double rateHz,
                               Long intervalNanos, String serviceClass, String correlationGroup) {
}
