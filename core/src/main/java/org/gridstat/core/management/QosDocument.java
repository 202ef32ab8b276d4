package org.gridstat.core.management;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;

/**
 * A QoS spec as the API carries it: the rate as {@code rateHz} or {@code intervalNanos} (one of
 * them), the latency bound in milliseconds, the number of disjoint paths (default 1), the class
 * ({@code HRT}, {@code LRT} or {@code BE}, default {@code BE}) and an optional correlation group.
 */
public record QosDocument(Double rateHz, Long intervalNanos, Double latencyBoundMs, Integer paths, String serviceClass,
                          String correlationGroup) {

    /** The spec's document; {@code rateHz} is rounded to the millihertz, {@code intervalNanos} is exact. */
    public static QosDocument of(QosSpec q) {
        return new QosDocument(Math.round(q.rateHz() * 1000) / 1000.0, q.intervalNanos(), q.latencyBoundNanos() / 1e6, q.paths(),
                q.serviceClass().name(), q.correlationGroup());
    }

    /**
     * @throws IllegalArgumentException listing every field that is missing or out of range
     */
    public QosSpec toSpec() {
        List<String> problems = new ArrayList<>();
        QosSpec.Builder b = QosSpec.builder();
        long interval = DocumentFields.interval(rateHz, intervalNanos, problems);
        if (interval > 0) {
            b.interval(Duration.ofNanos(interval));
        }
        if (latencyBoundMs == null || !(latencyBoundMs > 0) || latencyBoundMs.isInfinite()) {
            problems.add("latencyBoundMs must be a positive number of milliseconds");
        } else {
            b.latencyBound(Duration.ofNanos(Math.round(latencyBoundMs * 1e6)));
        }
        if (paths != null) {
            b.paths(paths);
        }
        ServiceClass c = serviceClass == null ? ServiceClass.BE : DocumentFields.dataClass(serviceClass, problems);
        if (c != null) {
            b.serviceClass(c);
        }
        if (correlationGroup != null) {
            b.correlationGroup(correlationGroup);
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid QoS specification: " + String.join("; ", problems));
        }
        return b.build();
    }

    /** The same with the rate given by the interval only, as requests must (exactly one of the two). */
    public QosDocument withoutRate() {
        return new QosDocument(null, intervalNanos, latencyBoundMs, paths, serviceClass, correlationGroup);
    }
}
