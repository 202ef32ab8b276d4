package org.gridstat.broker.install;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongFunction;
import org.gridstat.broker.admission.AdmissionResult.Admitted;
import org.gridstat.broker.admission.AdmissionResult.Hop;
import org.gridstat.broker.admission.SharedFlow;
import org.gridstat.broker.admission.SubscriptionRequest;
import org.gridstat.core.control.ControlMessage.InstallFlow;
import org.gridstat.core.control.ControlMessage.Upstream;
import org.gridstat.core.model.Endpoint;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.FlowSpec;

/**
 * Turns admitted subscriptions into the flows each router must hold. A router holds one flow per
 * out-link and variable, whatever the number of subscriptions behind it: its class, assured rate
 * and intervals are those of the {@link SharedFlow} admission counted (the most urgent class, the
 * highest rate, the union of the intervals), its downstream budget the tightest, its least
 * rest-of-path delay the shortest (an event is given up on only when no subscriber behind the link
 * can still get it in time).
 * Out-links are named by the next router's id, and at the subscriber's router by the
 * subscription's link. A flow keeps its id while it exists; its version grows whenever its content
 * changes.
 */
public final class FlowPlanner {
    /** One subscription's use of one router's out-link. */
    private record Use(long subscriptionId, SubscriptionRequest request, long downstreamBudget, long minRestDelay,
                       java.util.Set<String> previous) {
        /** One subscription crossing the link on two of its paths (where they meet): the tighter of each, both previous hops. */
        Use tightest(Use o) {
            java.util.Set<String> both = new java.util.TreeSet<>(previous);
            both.addAll(o.previous);
            return new Use(subscriptionId, request, Math.min(downstreamBudget, o.downstreamBudget),
                    Math.min(minRestDelay, o.minRestDelay), both);
        }
    }

    private record FlowKey(String router, String link, long variableId) {
    }

    private final Map<Long, List<FlowKey>> bySubscription = new HashMap<>();
    private final Map<FlowKey, Map<Long, Use>> uses = new LinkedHashMap<>();
    private final Map<FlowKey, Long> flowIds = new HashMap<>();
    private final Map<FlowKey, InstallFlow> current = new HashMap<>();
    private final long versionBase;
    private final FlowRates rates;
    private final LongFunction<String> groupOf;
    private final java.util.function.Function<String, Endpoint> addressOf;
    private long nextFlowId = 1;

    /** A planner whose flow versions start at 1. */
    public FlowPlanner() {
        this(0);
    }

    /**
     * A planner whose flow versions start above {@code versionBase}: a broker resuming after
     * another gives a base above every version the other can have sent (its epoch, shifted), so
     * routers take the resumed broker's flows as newer.
     */
    public FlowPlanner(long versionBase) {
        this(versionBase, FlowRates.DEFAULT, id -> "");
    }

    /**
     * The same, giving flows {@code rates}' minimum rates and ceilings and each variable's
     * correlation group ({@code groupOf} its id: "" for none), by which congestion control
     * chooses victims.
     */
    public FlowPlanner(long versionBase, FlowRates rates, LongFunction<String> groupOf) {
        this(versionBase, rates, groupOf, id -> null);
    }

    /**
     * The same, naming in each flow the hops its events come from, with each router's data address
     * ({@code addressOf} its id; {@code null}: not known), where congestion notices for the flow go.
     */
    public FlowPlanner(long versionBase, FlowRates rates, LongFunction<String> groupOf,
                       java.util.function.Function<String, Endpoint> addressOf) {
        this.addressOf = Objects.requireNonNull(addressOf, "addressOf");
        if (versionBase < 0) {
            throw new IllegalArgumentException("version base must not be negative");
        }
        this.versionBase = versionBase;
        this.rates = Objects.requireNonNull(rates, "rates");
        this.groupOf = Objects.requireNonNull(groupOf, "groupOf");
    }

    /** The id the next new flow gets: every id below it may have been given (stored so ids are never reused). */
    public long nextFlowId() {
        return nextFlowId;
    }

    /** Gives new flows ids from {@code next} on at least: a broker resuming continues after its predecessor's ids. */
    public void continueFlowIdsFrom(long next) {
        nextFlowId = Math.max(nextFlowId, next);
    }

    /** A change to send: a flow to install (new or changed), or to remove. */
    public record Change(String router, InstallFlow install, long removeFlowId, long removeVersion) {
        public boolean isRemoval() {
            return install == null;
        }

    }

    /** Adds an admitted subscription; returns the flows to install or change. */
    public List<Change> add(SubscriptionRequest request, Admitted admitted) {
        if (bySubscription.containsKey(request.subscriptionId())) {
            throw new IllegalArgumentException("subscription " + request.subscriptionId() + " is planned already");
        }
        return replan(addUses(request, admitted));
    }

    /** Removes a subscription; returns the flows to change or remove. */
    public List<Change> remove(long subscriptionId) {
        return replan(removeUses(subscriptionId));
    }

    /**
     * Replaces a subscription's request and paths in one step: flows both use are changed in
     * place (same id, next version) rather than removed and installed again.
     */
    public List<Change> replace(SubscriptionRequest request, Admitted admitted) {
        List<FlowKey> keys = new ArrayList<>(removeUses(request.subscriptionId()));
        keys.addAll(addUses(request, admitted));
        return replan(keys);
    }

    /**
     * Adds a subscription held earlier (loaded from the broker's store) with the flow ids it used,
     * one per hop in path order: each flow keeps its id, so routers resynchronised see the flows
     * they hold. Returns nothing to send: the resynchronisation sends every flow.
     *
     * @throws IllegalStateException if a flow id contradicts one restored before for the same flow
     */
    public void restore(SubscriptionRequest request, Admitted admitted, List<Long> flowIdsByHop) {
        int i = 0;
        for (List<Hop> path : admitted.paths()) {
            for (Hop hop : path) {
                if (i >= flowIdsByHop.size()) {
                    throw new IllegalStateException("subscription " + request.subscriptionId() + " lacks flow ids");
                }
                FlowKey key = new FlowKey(hop.router(), hop.next() != null ? hop.next() : request.subscriberLink(),
                        request.variable().value());
                long id = flowIdsByHop.get(i++);
                Long known = flowIds.putIfAbsent(key, id);
                if (known != null && known != id) {
                    throw new IllegalStateException("subscription " + request.subscriptionId() + " names flow " + id
                            + " for " + key + ", which another subscription names " + known);
                }
                nextFlowId = Math.max(nextFlowId, id + 1);
            }
        }
        replan(addUses(request, admitted));
    }

    /** The flow ids a subscription uses, one per hop in path order (what {@link #restore} takes back). */
    public List<Long> flowIdsOf(long subscriptionId) {
        List<FlowKey> keys = bySubscription.get(subscriptionId);
        if (keys == null) {
            return List.of();
        }
        List<Long> ids = new ArrayList<>(keys.size());
        for (FlowKey k : keys) {
            ids.add(flowIds.get(k));
        }
        return ids;
    }

    /** The versions of the flows a subscription uses, one per hop in path order (beside {@link #flowIdsOf}). */
    public List<Long> versionsOf(long subscriptionId) {
        List<FlowKey> keys = bySubscription.getOrDefault(subscriptionId, List.of());
        List<Long> versions = new ArrayList<>(keys.size());
        for (FlowKey k : keys) {
            versions.add(current.get(k).version());
        }
        return versions;
    }

    /**
     * Gives a subscription's flows the versions {@link #versionsOf} read before a change that was
     * never sent, once {@link #restore} has put back their content: the routers hold those
     * versions, so the next change must number above them, not start again at the base.
     */
    public void restoreVersions(long subscriptionId, List<Long> versions) {
        List<FlowKey> keys = bySubscription.getOrDefault(subscriptionId, List.of());
        if (keys.size() != versions.size()) {
            throw new IllegalArgumentException("subscription " + subscriptionId + " has " + keys.size()
                    + " flows, " + versions.size() + " versions given");
        }
        for (int i = 0; i < keys.size(); i++) {
            InstallFlow f = current.get(keys.get(i));
            if (versions.get(i) > f.version()) {
                current.put(keys.get(i), f.withVersion(versions.get(i)));
            }
        }
    }

    private List<FlowKey> addUses(SubscriptionRequest request, Admitted admitted) {
        if (request.subscriberLink().isEmpty()) {
            throw new IllegalArgumentException("subscription " + request.subscriptionId() + " names no subscriber link");
        }
        List<FlowKey> keys = new ArrayList<>();
        for (List<Hop> path : admitted.paths()) {
            String previous = ""; // the publisher, before the path's first router
            for (Hop hop : path) {
                String link = hop.next() != null ? hop.next() : request.subscriberLink();
                FlowKey key = new FlowKey(hop.router(), link, request.variable().value());
                keys.add(key);
                uses.computeIfAbsent(key, k -> new LinkedHashMap<>()).merge(request.subscriptionId(),
                        new Use(request.subscriptionId(), request, hop.downstreamBudgetNanos(), hop.minRestDelayNanos(),
                                java.util.Set.of(previous)),
                        Use::tightest);
                previous = hop.router();
            }
        }
        bySubscription.put(request.subscriptionId(), keys);
        return keys;
    }

    private List<FlowKey> removeUses(long subscriptionId) {
        List<FlowKey> keys = bySubscription.remove(subscriptionId);
        if (keys == null) {
            return List.of();
        }
        for (FlowKey key : keys) {
            Map<Long, Use> u = uses.get(key);
            if (u != null) {
                u.remove(subscriptionId);
                if (u.isEmpty()) {
                    uses.remove(key);
                }
            }
        }
        return keys;
    }

    /** The subscriptions a router's flow carries, in the order they joined it (none: no such flow). */
    public List<Long> subscriptionsOn(String router, long flowId) {
        for (Map.Entry<FlowKey, Long> e : flowIds.entrySet()) {
            if (e.getValue() == flowId && e.getKey().router().equals(router)) {
                Map<Long, Use> u = uses.get(e.getKey());
                return u == null ? List.of() : List.copyOf(u.keySet());
            }
        }
        return List.of();
    }

    /** Every flow planned, by router. */
    public Map<String, List<InstallFlow>> flows() {
        Map<String, List<InstallFlow>> out = new java.util.TreeMap<>();
        for (Map.Entry<FlowKey, InstallFlow> e : current.entrySet()) {
            out.computeIfAbsent(e.getKey().router(), r -> new ArrayList<>()).add(e.getValue());
        }
        return out;
    }

    private List<Change> replan(List<FlowKey> keys) {
        List<Change> changes = new ArrayList<>();
        for (FlowKey key : new java.util.LinkedHashSet<>(keys)) {
            Map<Long, Use> u = uses.get(key);
            InstallFlow before = current.get(key);
            if (u == null) {
                if (before != null) {
                    current.remove(key);
                    flowIds.remove(key);
                    changes.add(new Change(key.router(), null, before.spec().flowId(), before.version()));
                }
                continue;
            }
            InstallFlow after = flowFor(key, u.values(), before == null ? versionBase + 1 : before.version() + 1);
            if (before == null || !before.equals(after.withVersion(before.version()))) {
                current.put(key, after);
                changes.add(new Change(key.router(), after, 0, 0));
            }
        }
        return changes;
    }

    private InstallFlow flowFor(FlowKey key, Iterable<Use> uses, long version) {
        long flowId = flowIds.computeIfAbsent(key, k -> nextFlowId++);
        SharedFlow shared = new SharedFlow();
        long budget = Long.MAX_VALUE;
        long rest = Long.MAX_VALUE;
        long publisher = 0;
        java.util.Set<String> previous = new java.util.TreeSet<>();
        for (Use use : uses) {
            previous.addAll(use.previous());
            SubscriptionRequest r = use.request();
            shared.add(r);
            budget = Math.min(budget, use.downstreamBudget());
            rest = Math.min(rest, use.minRestDelay());
            publisher = Math.max(publisher, r.publisherIntervalNanos());
        }
        long assured = shared.assuredRate();
        ServiceClass c = shared.serviceClass();
        String group = groupOf.apply(key.variableId());
        FlowSpec spec = FlowSpec.of(flowId, c, assured, rates.minimumOf(c, assured), rates.ceilingOf(c, assured),
                FlowSpec.DEFAULT_BUFFER_EVENTS, group == null ? "" : group);
        List<Upstream> upstream = new ArrayList<>();
        for (String p : previous) {
            if (upstream.size() < InstallFlow.MAX_UPSTREAM) { // more than that many neighbours feeding one flow: the rest unnamed
                upstream.add(p.isEmpty() ? Upstream.PUBLISHER : new Upstream(p, addressOf.apply(p)));
            }
        }
        return new InstallFlow(version, key.variableId(), key.link(), spec, shared.intervals(), publisher, budget, rest,
                upstream);
    }
}
