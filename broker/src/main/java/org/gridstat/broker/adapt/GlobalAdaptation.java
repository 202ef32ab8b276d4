package org.gridstat.broker.adapt;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.gridstat.broker.Failures;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.StoredButNotInstalledException;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.topology.Link;
import org.gridstat.core.control.ControlMessage.InstallFlow;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.time.NanoClock;

/**
 * The broker's global adaptation (DESIGN.md section 5): a router's congestion control found no
 * victim left for a congested HRT flow (its flow report's shortfall, or in the simulator its
 * decision), so the broker, after its reaction delay and only if the flow is still short,
 * re-plans: the fastest HRT subscription the flow carries is admitted afresh at the rate the
 * flow's need carries (its wire size per sample; the publisher is taken to publish at that rate,
 * as the router measured, whatever it declared), on its paths if they have room or on others
 * that do (admission's search), and installed like any change. Where that is refused, the
 * subscriptions crossing the congested link are moved, a variable at a time, to other paths that
 * avoid it where one has room, the growth tried again after each ({@link QosBroker#replan}: all in
 * one step under the broker's lock, and nothing moves unless the growth is admitted). Where
 * nothing makes room, the subscription keeps its paths and reservation, and the outcome says why.
 * One re-plan per flow at a time; a flow short again after it is re-planned again.
 *
 * <p>The reaction delay models how long a broker waits before it believes an alarm (the thesis's
 * broker: 60 s); the default is well under a second. Outcomes go to a listener (the broker's
 * alarms) and the last {@link #KEPT} are kept for the management API.
 */
public final class GlobalAdaptation {
    public static final Duration DEFAULT_DELAY = Duration.ofMillis(200);
    /** Outcomes kept, the most recent. */
    public static final int KEPT = 256;
    /** Subscriptions tried for a move off a congested link, at most, for one growth. */
    static final int MAX_TRIES = 16;

    /** Runs a task after a delay: a scheduled executor, or the simulator's event loop. */
    @FunctionalInterface
    public interface Scheduler {
        void after(long delayNanos, Runnable task);
    }

    /** Whether a router's flow is still short of bandwidth now. */
    @FunctionalInterface
    public interface StillShort {
        boolean test(String router, long flowId);
    }

    /** What a re-plan did. */
    public record Outcome(long raisedAtNanos, long decidedAtNanos, String router, long flowId, long subscriptionId,
                          Kind kind, String detail) {
        public enum Kind {
            /** The subscription was admitted at the rate the flow needs: new reservations installed. */
            GROWN,
            /** No path can carry it: it keeps what it had. */
            REFUSED,
            /**
             * Admitted at the rate it needs and stored, but sending the new reservations to a
             * router failed (the message says why): they stand in the broker's state, and a router
             * is sent them again when it next resynchronises.
             */
            STORED,
            /** The flow was no longer short when the delay had passed. */
            RESOLVED
        }

        @Override
        public String toString() {
            return kind + " " + router + " flow " + flowId + (subscriptionId > 0 ? " subscription " + subscriptionId : "")
                    + ": " + detail;
        }
    }

    private record Key(String router, long flowId) {
    }

    private final QosBroker broker;
    private final long delayNanos;
    private final Scheduler scheduler;
    private final NanoClock clock;
    private final StillShort stillShort;
    private final Consumer<Outcome> listener;
    private final Set<Key> pending = ConcurrentHashMap.newKeySet();
    private final ArrayDeque<Outcome> recent = new ArrayDeque<>();

    public GlobalAdaptation(QosBroker broker, Duration delay, Scheduler scheduler, NanoClock clock, StillShort stillShort,
                            Consumer<Outcome> listener) {
        this.broker = Objects.requireNonNull(broker, "broker");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("the reaction delay must not be negative, got " + delay);
        }
        this.delayNanos = delay.toNanos();
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.stillShort = Objects.requireNonNull(stillShort, "stillShort");
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /**
     * A router's flow is short: it needs {@code needBytesPerSecond} on its link in all (its
     * reservation and what congestion control could not find). Re-planned after the delay.
     */
    public void unmet(String router, long flowId, long needBytesPerSecond) {
        Key key = new Key(router, flowId);
        if (!pending.add(key)) {
            return; // one re-plan per flow at a time
        }
        long raisedAt = clock.nanoTime();
        scheduler.after(delayNanos, () -> {
            try {
                replan(router, flowId, needBytesPerSecond, raisedAt);
            } catch (RuntimeException e) {
                pending.remove(key);
                throw e;
            }
        });
    }

    private void replan(String router, long flowId, long need, long raisedAt) {
        if (!stillShort.test(router, flowId)) {
            done(new Outcome(raisedAt, clock.nanoTime(), router, flowId, 0, Outcome.Kind.RESOLVED,
                    "no longer short after " + Duration.ofNanos(delayNanos).toMillis() + " ms"));
            return;
        }
        AdmittedSubscription fastest = broker.subscriptionsOn(router, flowId).stream()
                .filter(s -> s.request().qos().serviceClass() == ServiceClass.HRT)
                .max(Comparator.comparingDouble(s -> s.request().qos().rateHz())).orElse(null);
        if (fastest == null) {
            done(new Outcome(raisedAt, clock.nanoTime(), router, flowId, 0, Outcome.Kind.REFUSED,
                    "no HRT subscription on the flow"));
            return;
        }
        QosSpec qos = fastest.request().qos();
        // A whole rate, as subscriptions name them: the samples per second the need carries, rounded up.
        long hz = (need + fastest.request().wireBytes() - 1) / fastest.request().wireBytes();
        long interval = Math.max(QosSpec.MIN_INTERVAL.toNanos(), Math.round(1e9 / Math.max(1, hz)));
        if (interval >= qos.intervalNanos()) {
            done(new Outcome(raisedAt, clock.nanoTime(), router, flowId, fastest.request().subscriptionId(),
                    Outcome.Kind.REFUSED, "its reservation already covers the " + need + " B/s the flow needs"));
            return;
        }
        QosSpec grown = QosSpec.builder().interval(Duration.ofNanos(interval)).latencyBound(qos.latencyBound())
                .paths(qos.paths()).serviceClass(qos.serviceClass()).correlationGroup(qos.correlationGroup()).build();
        long id = fastest.request().subscriptionId();
        String change = String.format("%.1f -> %.1f Hz (%d B/s needed on %s)", qos.rateHz(), grown.rateHz(), need, router);
        Link congested = linkOf(router, flowId);
        CompletableFuture<QosBroker.Replan> replanned;
        try {
            // The flow's need is what its publisher sends: taken as the variable's rate for this re-plan.
            // The change is made from the spec as it is then, so an operator's change since is kept.
            UnaryOperator<QosSpec> grow = current -> QosSpec.builder().interval(Duration.ofNanos(interval))
                    .latencyBound(current.latencyBound()).paths(current.paths()).serviceClass(current.serviceClass())
                    .correlationGroup(current.correlationGroup()).build();
            replanned = congested == null ? broker.modify(id, grow, interval).thenApply(r -> new QosBroker.Replan(r, List.of()))
                    : broker.replan(id, grow, interval, congested, MAX_TRIES);
        } catch (RuntimeException e) {
            replanned = CompletableFuture.failedFuture(e);
        }
        replanned.whenComplete((r, error) -> {
            Throwable cause = Failures.unwrap(error);
            if (cause instanceof StoredButNotInstalledException) {
                done(new Outcome(raisedAt, clock.nanoTime(), router, flowId, id, Outcome.Kind.STORED, change
                        + ": admitted and stored, but sending the new reservations to the routers failed: "
                        + (cause.getCause() != null ? cause.getCause().getMessage() : cause.getMessage())));
            } else if (error != null) {
                done(new Outcome(raisedAt, clock.nanoTime(), router, flowId, id, Outcome.Kind.REFUSED, change + ": " + cause));
            } else if (r.result() instanceof AdmissionResult.Admitted) {
                done(new Outcome(raisedAt, clock.nanoTime(), router, flowId, id, Outcome.Kind.GROWN, change
                        + (r.moved().isEmpty() ? "" : "; moved off " + congested.name() + ": subscription "
                        + r.moved().stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", subscription ")))));
            } else {
                done(new Outcome(raisedAt, clock.nanoTime(), router, flowId, id, Outcome.Kind.REFUSED,
                        change + " not admitted: " + ((AdmissionResult.Rejected) r.result()).reason()
                        + (congested == null ? "" : "; no move of the subscriptions on " + congested.name()
                        + " to other paths made room for it")));
            }
        });
    }

    /** The topology link a router's flow leaves on, or {@code null} (a link to subscribers). */
    private Link linkOf(String router, long flowId) {
        for (InstallFlow f : broker.flows().getOrDefault(router, List.of())) {
            if (f.spec().flowId() == flowId) {
                return broker.topology().link(router, f.link());
            }
        }
        return null;
    }

    /** Records a re-plan's outcome; the flow may be re-planned again from now. */
    private void done(Outcome o) {
        pending.remove(new Key(o.router(), o.flowId()));
        synchronized (recent) {
            if (recent.size() == KEPT) {
                recent.removeFirst();
            }
            recent.addLast(o);
        }
        listener.accept(o);
    }

    /** The last outcomes, oldest first. */
    public List<Outcome> recent() {
        synchronized (recent) {
            return List.copyOf(recent);
        }
    }

    public Duration delay() {
        return Duration.ofNanos(delayNanos);
    }
}
