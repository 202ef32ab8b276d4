package org.gridstat.core.model;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a subscriber asks of a stream: how often (interval, the inverse of the rate), how fast
 * (end-to-end latency bound), how redundantly (number of node-disjoint paths), in which service
 * class, and the correlation group (the substation the data comes from) that congestion control
 * uses to choose victims. Immutable; build it with {@link #builder()}.
 */
public final class QosSpec {
    /** Shortest interval: 1 kHz, well above the 120 Hz of the fastest PMUs. */
    public static final Duration MIN_INTERVAL = Duration.ofMillis(1);
    /** Longest interval: one sample an hour. */
    public static final Duration MAX_INTERVAL = Duration.ofHours(1);
    /** Shortest latency bound a WAN path can honour. */
    public static final Duration MIN_LATENCY_BOUND = Duration.ofMillis(1);
    /** Longest latency bound: beyond a minute the data is history, not status. */
    public static final Duration MAX_LATENCY_BOUND = Duration.ofMinutes(1);
    /** Most disjoint paths one subscription may ask for. */
    public static final int MAX_PATHS = 4;

    private static final Pattern CORRELATION_GROUP = Pattern.compile("[A-Za-z0-9_.\\-/]{0,128}");

    private final long intervalNanos;
    private final long latencyBoundNanos;
    private final int paths;
    private final ServiceClass serviceClass;
    private final String correlationGroup;

    private QosSpec(Builder b) {
        this.intervalNanos = b.interval.toNanos();
        this.latencyBoundNanos = b.latencyBound.toNanos();
        this.paths = b.paths;
        this.serviceClass = b.serviceClass;
        this.correlationGroup = b.correlationGroup;
    }

    /** Whether {@code group} is a correlation group a spec may carry (empty: none). */
    public static boolean isCorrelationGroup(String group) {
        return group != null && CORRELATION_GROUP.matcher(group).matches();
    }

    public static Builder builder() {
        return new Builder();
    }

    public long intervalNanos() {
        return intervalNanos;
    }

    public Duration interval() {
        return Duration.ofNanos(intervalNanos);
    }

    /** Samples per second. */
    public double rateHz() {
        return 1e9 / intervalNanos;
    }

    public long latencyBoundNanos() {
        return latencyBoundNanos;
    }

    public Duration latencyBound() {
        return Duration.ofNanos(latencyBoundNanos);
    }

    public int paths() {
        return paths;
    }

    public ServiceClass serviceClass() {
        return serviceClass;
    }

    /** The correlation group, empty if none was given. */
    public String correlationGroup() {
        return correlationGroup;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof QosSpec)) {
            return false;
        }
        QosSpec q = (QosSpec) o;
        return intervalNanos == q.intervalNanos && latencyBoundNanos == q.latencyBoundNanos && paths == q.paths
                && serviceClass == q.serviceClass && correlationGroup.equals(q.correlationGroup);
    }

    @Override
    public int hashCode() {
        return Objects.hash(intervalNanos, latencyBoundNanos, paths, serviceClass, correlationGroup);
    }

    @Override
    public String toString() {
        return String.format("QosSpec[%s Hz, latency <= %s, %d path(s), %s%s]", fmtRate(rateHz()), latencyBound(),
                paths, serviceClass, correlationGroup.isEmpty() ? "" : ", group " + correlationGroup);
    }

    private static String fmtRate(double hz) {
        return hz == Math.rint(hz) ? Long.toString((long) hz) : String.format("%.3f", hz);
    }

    /** Collects the fields, then validates them all at once in {@link #build()}. */
    public static final class Builder {
        private Duration interval;
        private Duration latencyBound;
        private int paths = 1;
        private ServiceClass serviceClass = ServiceClass.BE;
        private String correlationGroup = "";

        private Builder() {
        }

        public Builder interval(Duration interval) {
            this.interval = interval;
            return this;
        }

        /** Sets the interval from a rate; 60 Hz gives 16,666,667 ns (rounded to the nearest ns). */
        public Builder rateHz(double hz) {
            if (!(hz > 0) || Double.isInfinite(hz)) {
                throw new InvalidQosException(List.of("rate must be a positive number of Hz, got " + hz));
            }
            this.interval = Duration.ofNanos(Math.round(1e9 / hz));
            return this;
        }

        public Builder latencyBound(Duration latencyBound) {
            this.latencyBound = latencyBound;
            return this;
        }

        public Builder paths(int paths) {
            this.paths = paths;
            return this;
        }

        public Builder serviceClass(ServiceClass serviceClass) {
            this.serviceClass = serviceClass;
            return this;
        }

        public Builder correlationGroup(String correlationGroup) {
            this.correlationGroup = correlationGroup;
            return this;
        }

        /**
         * @throws InvalidQosException listing every field that is missing or out of range
         */
        public QosSpec build() {
            List<String> problems = new ArrayList<>();
            if (interval == null) {
                problems.add("interval (or rate) is required");
            } else if (interval.compareTo(MIN_INTERVAL) < 0 || interval.compareTo(MAX_INTERVAL) > 0) {
                problems.add("interval " + interval + " is outside [" + MIN_INTERVAL + ", " + MAX_INTERVAL + "]");
            }
            if (latencyBound == null) {
                problems.add("latency bound is required");
            } else if (latencyBound.compareTo(MIN_LATENCY_BOUND) < 0 || latencyBound.compareTo(MAX_LATENCY_BOUND) > 0) {
                problems.add("latency bound " + latencyBound + " is outside [" + MIN_LATENCY_BOUND + ", "
                        + MAX_LATENCY_BOUND + "]");
            }
            if (paths < 1 || paths > MAX_PATHS) {
                problems.add("paths must be between 1 and " + MAX_PATHS + ", got " + paths);
            }
            if (serviceClass == null) {
                problems.add("service class is required");
            } else if (!serviceClass.isSubscribable()) {
                problems.add("service class CONTROL is reserved for the middleware; use HRT, LRT or BE");
            }
            if (correlationGroup == null) {
                correlationGroup = "";
            } else if (!CORRELATION_GROUP.matcher(correlationGroup).matches()) {
                problems.add("correlation group '" + correlationGroup
                        + "' may hold at most 128 letters, digits, '_', '-', '.' and '/'");
            }
            if (!problems.isEmpty()) {
                throw new InvalidQosException(problems);
            }
            return new QosSpec(this);
        }
    }
}
