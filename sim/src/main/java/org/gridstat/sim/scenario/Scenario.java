package org.gridstat.sim.scenario;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.gridstat.broker.install.FlowRates;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.sim.net.LinkModel;

/**
 * A simulation to run: the broker's topology, how each link behaves beyond what the broker knows,
 * the variables published, the subscriptions asked for, the sources and a timeline of changes and
 * faults. Built in code or read from a YAML file ({@code ScenarioFile}); immutable.
 *
 * @param durationNanos       simulated time to run
 * @param reportIntervalNanos the width of one row of the per-flow CSV
 * @param seed                the one seed every random choice is drawn from
 * @param admission           how the broker admits: its full test, or bandwidth only (for baselines)
 * @param links               a link's behaviour by name ({@code a->b} for a topology link,
 *                            {@code router/name} for a delivery link); a link not named takes the
 *                            topology's bandwidth and delay, the router's scheduler and no faults
 */
public record Scenario(String name, Topology topology, long durationNanos, long reportIntervalNanos, long seed,
                       Admission admission, Map<String, LinkModel> links, List<Variable> variables,
                       List<Subscription> subscriptions, List<RawSource> rawSources, List<Change> timeline,
                       Congestion congestion) {
    public enum Admission { FULL, BANDWIDTH_ONLY }

    /**
     * How the routers estimate demand and whether they reassign bandwidth (cooperative congestion
     * control's local part), and the minimum rates and ceilings the broker gives flows.
     *
     * @param control   whether every router runs the thesis's bandwidth reassignment
     * @param estimator the routers' estimator: its period and weight
     * @param rates     the broker's minimum rate and ceiling per class
     */
    public record Congestion(boolean control, boolean notices, EstimatorSettings estimator, FlowRates rates,
                             long adaptationDelayNanos) {
        /** {@link #adaptationDelayNanos} of a broker that does not re-plan on congestion alarms. */
        public static final long NO_ADAPTATION = -1;
        /** Reservations only, as the broker installs them; the routers' default estimator. */
        public static final Congestion OFF = new Congestion(false, false, EstimatorSettings.DEFAULT, FlowRates.DEFAULT);

        /** Without global adaptation. */
        public Congestion(boolean control, boolean notices, EstimatorSettings estimator, FlowRates rates) {
            this(control, notices, estimator, rates, NO_ADAPTATION);
        }

        /**
         * @param notices              whether routers send congestion notices toward the publishers
         *                             (back-pressure); only with {@code control}
         * @param adaptationDelayNanos how long after a router's congestion control finds no victim
         *                             left for an HRT flow the broker re-plans it, if it is still
         *                             short; {@link #NO_ADAPTATION}: never. Only with {@code control}
         */
        public Congestion {
            Objects.requireNonNull(estimator, "estimator");
            Objects.requireNonNull(rates, "rates");
            if (notices && !control) {
                throw new IllegalArgumentException("congestion notices need congestion control on");
            }
            if (adaptationDelayNanos < NO_ADAPTATION || (adaptationDelayNanos >= 0 && !control)) {
                throw new IllegalArgumentException("global adaptation needs congestion control on and a delay of 0 or more");
            }
        }

        /** The same with global adaptation after {@code delayNanos}. */
        public Congestion adaptingAfter(long delayNanos) {
            return new Congestion(control, notices, estimator, rates, delayNanos);
        }
    }

    /** A scenario without congestion control. */
    public Scenario(String name, Topology topology, long durationNanos, long reportIntervalNanos, long seed,
                    Admission admission, Map<String, LinkModel> links, List<Variable> variables,
                    List<Subscription> subscriptions, List<RawSource> rawSources, List<Change> timeline) {
        this(name, topology, durationNanos, reportIntervalNanos, seed, admission, links, variables, subscriptions, rawSources,
                timeline, Congestion.OFF);
    }

    public Scenario {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(congestion, "congestion");
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(admission, "admission");
        links = Map.copyOf(links);
        variables = List.copyOf(variables);
        subscriptions = List.copyOf(subscriptions);
        rawSources = List.copyOf(rawSources);
        timeline = List.copyOf(timeline);
        if (durationNanos <= 0 || reportIntervalNanos <= 0) {
            throw new IllegalArgumentException("duration and report interval must be positive");
        }
    }

    public Scenario withSeed(long s) {
        return new Scenario(name, topology, durationNanos, reportIntervalNanos, s, admission, links, variables,
                subscriptions, rawSources, timeline, congestion);
    }

    public Scenario withCongestion(Congestion c) {
        return new Scenario(name, topology, durationNanos, reportIntervalNanos, seed, admission, links, variables,
                subscriptions, rawSources, timeline, c);
    }

    /**
     * A published variable and its publisher: declared to the broker at its router, published
     * from {@code startNanos} at its interval with a jitter below {@code jitterNanos}, each event
     * stamped with a deadline {@code latencyBoundNanos} after its source time (0: none).
     *
     * @param clockOffsetNanos how far the publisher's clock is from true time
     */
    public record Variable(String name, String router, int frameBytes, long intervalNanos, ServiceClass serviceClass,
                           String correlationGroup, long startNanos, long jitterNanos, long latencyBoundNanos,
                           long clockOffsetNanos) {
        public Variable {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(router, "router");
            Objects.requireNonNull(serviceClass, "serviceClass");
            correlationGroup = correlationGroup == null ? "" : correlationGroup;
        }
    }

    /**
     * A subscription asked of the broker at {@code atNanos}, delivered at {@code router} over its
     * delivery link {@code link}; {@code label} names it in the outputs and the timeline.
     */
    public record Subscription(String label, String variable, String router, String link, QosSpec qos, long atNanos) {
        public Subscription {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(variable, "variable");
            Objects.requireNonNull(router, "router");
            Objects.requireNonNull(link, "link");
            Objects.requireNonNull(qos, "qos");
        }
    }

    /**
     * Datagrams of another protocol (cross traffic, a C37.118 frame over UDP) sent from
     * {@code router} over its out-link {@code link} only, through the link's discipline, counted
     * where the link ends: {@code sizes} bytes of UDP payload in turn, one every
     * {@code intervalNanos} (exponential gaps of that mean if {@code poisson}), from
     * {@code startNanos} to {@code stopNanos}. The router queues them as one best-effort flow
     * of {@code bufferDatagrams}.
     */
    public record RawSource(String label, String router, String link, List<Integer> sizes, long intervalNanos,
                            boolean poisson, long startNanos, long stopNanos, int bufferDatagrams) {
        public RawSource {
            Objects.requireNonNull(label, "label");
            sizes = List.copyOf(sizes);
            if (sizes.isEmpty() || sizes.stream().anyMatch(s -> s < 1 || s > 65_507)) {
                throw new IllegalArgumentException("raw source " + label + ": sizes must be 1..65507 bytes");
            }
            if (intervalNanos <= 0 || bufferDatagrams < 1) {
                throw new IllegalArgumentException("raw source " + label + ": interval and buffer must be positive");
            }
        }
    }

    /** Something that happens at a time of the run. */
    public sealed interface Change {
        long atNanos();
    }

    /** The publisher of {@code variable} publishes every {@code intervalNanos} from then on. */
    public record RateChange(long atNanos, String variable, long intervalNanos) implements Change {
    }

    /** A raw source sends every {@code intervalNanos} from then on. */
    public record RawRateChange(long atNanos, String source, long intervalNanos) implements Change {
    }

    /** A link ({@code a->b} or {@code router/name}) is cut, losing all it carries, or restored. */
    public record LinkState(long atNanos, String link, boolean up) implements Change {
    }

    /** A router crashes (loses all it holds) or restarts (the broker installs its flows again). */
    public record RouterState(long atNanos, String router, boolean up) implements Change {
    }

    /** The subscription labelled {@code label} is torn down. */
    public record Unsubscribe(long atNanos, String label) implements Change {
    }
}
