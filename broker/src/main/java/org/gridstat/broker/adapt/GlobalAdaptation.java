package org.gridstat.broker.adapt;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.gridstat.broker.QosBroker;
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
 * that do (admission's search), and installed like any change. Where the congested link has no
 * room left for it, the subscriptions of its class that hold room there are moved to other paths
 * that avoid the link, where one has room, and the growth is tried again. Where nothing makes
 * room, the subscription keeps its paths and reservation, and the outcome says why. One re-plan per flow
 * at a time; a flow short again after it is re-planned again.
 *
 * <p>The reaction delay models how long a broker waits before it believes an alarm (the thesis's
 * broker: 60 s); the default is well under a second. Outcomes go to a listener (the broker's
 * alarms) and the last {@link #KEPT} are kept for the management API.
 */
public final class GlobalAdaptation {
    public static final Duration DEFAULT_DELAY = Duration.ofMillis(200);
    /** Outcomes kept, the most recent. */
    public static final int KEPT = 256;
    /** Subscriptions moved off a link for one growth, at most. */
    static final int MAX_MOVES = 8;

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
            pending.remove(key);
            replan(router, flowId, needBytesPerSecond, raisedAt);
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
        // The flow's need is what its publisher sends: taken as the variable's rate for this re-plan.
        Growth g = new Growth(raisedAt, router, flowId, id, change, () -> broker.modify(id, current -> grown, interval));
        g.attempt().whenComplete((result, error) -> {
            if (error == null && result instanceof AdmissionResult.Admitted) {
                done(g.outcome(Outcome.Kind.GROWN, change));
                return;
            }
            String why = error != null ? String.valueOf(error) : ((AdmissionResult.Rejected) result).reason();
            Link congested = linkOf(router, flowId);
            if (congested == null) {
                done(g.outcome(Outcome.Kind.REFUSED, change + " not admitted: " + why));
                return;
            }
            // Room its class lacks on the congested link, and what the others of its class there hold
            ServiceClass c = qos.serviceClass();
            long lacking = need - fastest.request().bytesPerSecond()
                    - (congested.classCapacity(c) - broker.admission().reserved(congested, c));
            List<AdmittedSubscription> movable = movable(fastest, congested);
            long held = movable.stream().mapToLong(v -> v.request().bytesPerSecond()).sum();
            if (lacking <= 0 || held < lacking) {
                done(g.outcome(Outcome.Kind.REFUSED, change + " not admitted: " + why + (lacking <= 0 ? ""
                        : "; the others of its class on " + congested.name() + " hold " + held + " B/s of the " + lacking
                        + " it lacks there: moving them cannot make room")));
                return;
            }
            moveThenGrow(g, congested, movable.iterator(), lacking, new ArrayList<>(), why);
        });
    }

    /** One HRT subscription's growth, and how to try it (again). */
    private final class Growth {
        final long raisedAt;
        final String router;
        final long flowId;
        final long subscriptionId;
        final String change;
        final java.util.function.Supplier<CompletableFuture<AdmissionResult>> attempt;

        Growth(long raisedAt, String router, long flowId, long subscriptionId, String change,
               java.util.function.Supplier<CompletableFuture<AdmissionResult>> attempt) {
            this.raisedAt = raisedAt;
            this.router = router;
            this.flowId = flowId;
            this.subscriptionId = subscriptionId;
            this.change = change;
            this.attempt = attempt;
        }

        CompletableFuture<AdmissionResult> attempt() {
            try {
                return attempt.get();
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }

        Outcome outcome(Outcome.Kind kind, String detail) {
            return new Outcome(raisedAt, clock.nanoTime(), router, flowId, subscriptionId, kind, detail);
        }
    }

    /**
     * The growth was refused for want of room on the congested link: the other subscriptions of its
     * class whose reservations hold that room are moved, one at a time, to paths that avoid the link
     * where such a path has room, and the growth is tried again after each move. Lower classes hold
     * no room of this class (per-class shares), so moving them could not make any.
     */
    private void moveThenGrow(Growth g, Link congested, java.util.Iterator<AdmittedSubscription> candidates, long lacking,
                              List<String> moved, String lastRefusal) {
        if (!candidates.hasNext() || moved.size() == MAX_MOVES || lacking <= 0) {
            done(g.outcome(Outcome.Kind.REFUSED, g.change + " not admitted: " + lastRefusal
                    + (moved.isEmpty() ? "; no subscription on " + congested.name() + " could move to another path"
                    : "; moved off " + congested.name() + ": " + String.join(", ", moved))));
            return;
        }
        AdmittedSubscription victim = candidates.next();
        CompletableFuture<AdmissionResult> move;
        try {
            move = broker.modify(victim.id(), q -> q, 0, l -> l.index() == congested.index());
        } catch (RuntimeException e) {
            move = CompletableFuture.failedFuture(e);
        }
        move.whenComplete((result, error) -> {
            if (error != null || !(result instanceof AdmissionResult.Admitted)) {
                moveThenGrow(g, congested, candidates, lacking, moved, lastRefusal); // it stays: try the next
                return;
            }
            moved.add("subscription " + victim.id());
            long still = lacking - victim.request().bytesPerSecond();
            g.attempt().whenComplete((grown, refused) -> {
                if (refused == null && grown instanceof AdmissionResult.Admitted) {
                    done(g.outcome(Outcome.Kind.GROWN, g.change + "; moved off " + congested.name() + ": "
                            + String.join(", ", moved)));
                } else {
                    // once the room is made, a refusal is for another reason: moving more would not help
                    moveThenGrow(g, congested, candidates, still, moved, refused != null ? String.valueOf(refused)
                            : ((AdmissionResult.Rejected) grown).reason());
                }
            });
        });
    }

    /**
     * The subscriptions that could make room on {@code link} for {@code growing}: of its class, of
     * another variable (a flow of the same variable is shared, and moving it frees nothing), with a
     * hop on the link; the same correlation group first, as congestion control takes its victims,
     * then the smallest reservation first (the least to move).
     */
    private List<AdmittedSubscription> movable(AdmittedSubscription growing, Link link) {
        ServiceClass c = growing.request().qos().serviceClass();
        String group = growing.request().qos().correlationGroup();
        return broker.subscriptions().stream()
                .filter(s -> s.id() != growing.id() && s.request().qos().serviceClass() == c
                        && !s.request().variable().equals(growing.request().variable()) && crosses(s, link))
                .sorted(Comparator.<AdmittedSubscription, Boolean>comparing(s -> !s.request().qos().correlationGroup()
                                .equals(group)).thenComparingLong(s -> s.request().bytesPerSecond())
                        .thenComparingLong(AdmittedSubscription::id))
                .toList();
    }

    private static boolean crosses(AdmittedSubscription s, Link link) {
        for (List<AdmissionResult.Hop> path : s.admitted().paths()) {
            for (AdmissionResult.Hop h : path) {
                if (h.router().equals(link.from().id()) && h.next().equals(link.to().id())) {
                    return true;
                }
            }
        }
        return false;
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

    private void done(Outcome o) {
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
