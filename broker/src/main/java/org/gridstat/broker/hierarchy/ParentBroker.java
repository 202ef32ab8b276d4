package org.gridstat.broker.hierarchy;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.gridstat.broker.admission.AdmissionController;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.SubscriptionRequest;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.RouterNode;
import org.gridstat.broker.topology.Topology;
import org.gridstat.client.BrokerSubscription;
import org.gridstat.client.DeclaredVariable;
import org.gridstat.client.SubscriptionRejectedException;
import org.gridstat.client.VariableDeclaration;
import org.gridstat.core.management.QosDocument;
import org.gridstat.core.management.SubscriptionDocument.HopDocument;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.VariableId;

/**
 * A parent broker over leaf brokers, each governing one cloud. It knows the border routers (each
 * with its cloud) and the links between clouds, and reserves bandwidth on those links itself; a
 * subscription whose publisher and subscriber are in different clouds is routed over the fewest
 * clouds (least border delay among equals), and each cloud's segment is delegated to its leaf as a
 * subscription of its own: in the publisher's cloud from the publisher's router to the exit border
 * router, in the next cloud from the entry border router (where the parent declares the variable
 * as relayed, under the same id) onwards. The latency bound, less the border links' delays, is
 * split evenly between the segments. Each segment is also told the least delay of the path from
 * its exit on, as far as the parent knows it: the border links still to cross, the exit's
 * included, each its propagation plus one frame's transmission (not the later clouds' own links,
 * whose paths are chosen after), so that its routers give an event up only when it cannot arrive
 * in time. If any part cannot be admitted, what was admitted is undone and the rejection names
 * the cloud. A subscription within one cloud goes to its leaf as it is. Cross-cloud subscriptions
 * take one path.
 *
 * <p>Each operation is recorded as an intent in the store before any leaf is called (its id, the
 * border links reserved, each cloud's leg), and the intent is updated as each leg is called and
 * made, so that a parent stopped half way finds on restart what the leaves may hold: an
 * unfinished subscription is undone, an unfinished teardown is finished. Every leaf call carries
 * an idempotency key made of the parent's identity, the intent's id and the leg's index, recorded
 * before the call: a leg whose answer never came is asked for again under its key, and the leaf
 * answers with the subscription the first call made, or makes it now; either way the parent
 * learns its id and tears it down, and nothing else. The border links of an unfinished operation
 * stay reserved until it is done (taken again on restart); an undo or teardown that fails (a leaf
 * down) is retried with back-off while the parent runs. Decisions on the parent's own state (ids,
 * border reservations) are serialised under its lock; the leaves are called outside it, so one
 * slow leaf does not hold up requests for other clouds.
 */
public final class ParentBroker implements AutoCloseable {
    /** The first retry of an unfinished operation comes this long after the failure; each next one twice as long. */
    static final Duration RETRY_FIRST = Duration.ofSeconds(1);
    /** The longest wait between retries. */
    static final Duration RETRY_MAX = Duration.ofSeconds(60);

    /** Runs a task after a delay: the parent's retries (tests give one on a clock they advance). */
    public interface Scheduler {
        void schedule(Runnable task, Duration delay);
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ParentBroker.class);
    private final Topology borders;
    private final Map<String, LeafBroker> leaves;
    private final Map<String, String> cloudOfRouter = new HashMap<>();
    private final AdmissionController borderAdmission;
    private final Map<Long, CrossCloudSubscription> subscriptions = new TreeMap<>();
    /** Operations under way (or left unfinished by a failed undo), by subscription id. */
    private final Map<Long, ParentIntent> pending = new TreeMap<>();
    /** (cloud, variable) pairs the parent declared as relays, so a variable's origin is told apart. */
    private final Set<String> relays = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final ParentStore store;
    /** The parent's identity in its idempotency keys. */
    private final String identity;
    private final Scheduler scheduler;
    /** Made when a first retry is scheduled with no scheduler given; stopped by {@link #close()}. */
    private java.util.concurrent.ScheduledExecutorService retries;
    /** Ids of the operations whose retry is scheduled. */
    private final Set<Long> retrying = new HashSet<>();
    private volatile boolean closed;
    private long nextId = 1;

    /**
     * A parent keeping its subscriptions in memory only.
     *
     * @see #ParentBroker(Topology, Map, Map, ParentStore)
     */
    public ParentBroker(Topology borders, Map<String, LeafBroker> leaves, Map<String, List<String>> routersByCloud) {
        this(borders, leaves, routersByCloud, null);
    }

    /**
     * A parent keeping its subscriptions in {@code store} (null: memory only), resuming those
     * stored: their border reservations are taken again and their segments stay with the leaves;
     * operations left unfinished are undone (subscriptions) or finished (teardowns).
     *
     * @param borders the border routers, each with its {@code cloud}, and the links between clouds
     * @param leaves  each cloud's leaf broker
     * @param routersByCloud every router of each cloud (the leaves' topologies)
     * @throws IllegalArgumentException if a border router's cloud has no leaf or lacks that router,
     *                                  or a border link joins two routers of one cloud
     */
    public ParentBroker(Topology borders, Map<String, LeafBroker> leaves, Map<String, List<String>> routersByCloud,
                        ParentStore store) {
        this(borders, leaves, routersByCloud, store, null);
    }

    /**
     * The same with the retries of unfinished operations run by {@code scheduler} (null: a thread
     * of the parent's own, stopped by {@link #close()}).
     */
    public ParentBroker(Topology borders, Map<String, LeafBroker> leaves, Map<String, List<String>> routersByCloud,
                        ParentStore store, Scheduler scheduler) {
        this.borders = borders;
        this.store = store;
        this.scheduler = scheduler != null ? scheduler : this::scheduleOnOwnThread;
        try {
            // a parent in memory only never repeats a call after a restart: a new identity each time
            this.identity = store != null ? store.identity()
                    : String.format("%016x", new java.security.SecureRandom().nextLong());
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the parent's identity: " + e.getMessage(), e);
        }
        this.leaves = Map.copyOf(leaves);
        routersByCloud.forEach((cloud, routers) -> routers.forEach(r -> {
            String other = cloudOfRouter.put(r, cloud);
            if (other != null && !other.equals(cloud)) {
                throw new IllegalArgumentException("router " + r + " is in both clouds " + other + " and " + cloud);
            }
        }));
        for (RouterNode b : borders.routers()) {
            if (!leaves.containsKey(b.cloud())) {
                throw new IllegalArgumentException("border router " + b.id() + ": no leaf broker for cloud '" + b.cloud() + "'");
            }
            if (!b.cloud().equals(cloudOfRouter.get(b.id()))) {
                throw new IllegalArgumentException("border router " + b.id() + " is not in cloud " + b.cloud() + "'s topology");
            }
        }
        for (Link l : borders.links()) {
            if (l.from().cloud().equals(l.to().cloud())) {
                throw new IllegalArgumentException("border link " + l.name() + " stays inside cloud " + l.from().cloud());
            }
        }
        this.borderAdmission = new AdmissionController(borders);
        if (store != null) {
            resume();
        }
    }

    private void resume() {
        List<CrossCloudSubscription> stored;
        List<ParentIntent> intents;
        try {
            stored = store.load();
            intents = store.intents();
            relays.addAll(store.relays());
            nextId = Math.max(nextId, store.nextId());
        } catch (Exception e) {
            throw new IllegalStateException("cannot load the parent's subscriptions: " + e.getMessage(), e);
        }
        for (CrossCloudSubscription s : stored) {
            for (int i = 0; i < s.borderLinks().size(); i++) {
                String name = s.borderLinks().get(i);
                Link l = borders.links().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow(() ->
                        new IllegalStateException("subscription " + s.id() + " crosses border link " + name
                                + ", which the border topology lacks"));
                AdmissionResult r = borderAdmission.admitOver(new SubscriptionRequest(borderId(s.id(), i), s.variableId(),
                        l.from().id(), l.to().id(), s.frameBytes(), s.qos()), List.of(l));
                if (r instanceof AdmissionResult.Rejected rejected) {
                    throw new IllegalStateException("subscription " + s.id() + " no longer fits border link " + name + ": "
                            + rejected.reason());
                }
            }
            subscriptions.put(s.id(), s);
            nextId = Math.max(nextId, s.id() + 1);
        }
        for (ParentIntent i : intents) {
            nextId = Math.max(nextId, i.id() + 1);
            pending.put(i.id(), i);
            if (i.action() == ParentIntent.Action.SUBSCRIBE) {
                reserveAgain(i); // until it is undone: the leaves may still carry its stream
            }
        }
        for (ParentIntent i : intents) {
            LOG.info("subscription {}: {} the {} begun before the parent stopped", i.id(),
                    i.action() == ParentIntent.Action.UNSUBSCRIBE ? "finishing" : "undoing", i.action());
            finishOrRetry(i.id(), RETRY_FIRST);
        }
    }

    /** Takes an unfinished subscription's border reservations again, as they were when it stopped. */
    private void reserveAgain(ParentIntent intent) {
        for (int k = 0; k < intent.borderLinks().size(); k++) {
            String name = intent.borderLinks().get(k);
            Link l = borders.links().stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
            if (l == null) {
                LOG.error("subscription {}: its intent names border link {}, which the border topology lacks; not "
                        + "reserved again", intent.id(), name);
                continue;
            }
            AdmissionResult r = borderAdmission.admitOver(new SubscriptionRequest(borderId(intent.id(), k),
                    VariableId.of(intent.variableId()), l.from().id(), l.to().id(), intent.frameBytes(),
                    intent.qos().withoutRate().toSpec()), List.of(l));
            if (r instanceof AdmissionResult.Rejected rejected) {
                LOG.error("subscription {}: border link {} cannot be reserved again for its unfinished intent: {}",
                        intent.id(), name, rejected.reason());
            }
        }
    }

    /**
     * Undoes or finishes an operation left unfinished; if that fails, schedules it again after
     * {@code delay}, then twice as long each time up to {@link #RETRY_MAX}, for as long as the
     * parent runs. Its border links stay reserved meanwhile.
     */
    private void finishOrRetry(long id, Duration delay) {
        ParentIntent intent;
        synchronized (this) {
            retrying.remove(id);
            intent = pending.get(id);
        }
        if (intent == null || closed) {
            return;
        }
        try {
            if (intent.action() == ParentIntent.Action.UNSUBSCRIBE) {
                if (!tearDown(id)) {
                    forget(id); // the subscription is gone already
                }
            } else {
                undo(intent);
            }
        } catch (RuntimeException e) {
            LOG.warn("subscription {}: the {} left unfinished cannot be completed now ({}); retried in {} s", id,
                    intent.action(), e.toString(), delay.toSeconds());
            retryLater(id, delay);
        }
    }

    private void retryLater(long id, Duration delay) {
        synchronized (this) {
            if (closed || !pending.containsKey(id) || !retrying.add(id)) {
                return; // done, or a retry is scheduled already
            }
        }
        Duration next = delay.multipliedBy(2).compareTo(RETRY_MAX) > 0 ? RETRY_MAX : delay.multipliedBy(2);
        scheduler.schedule(() -> finishOrRetry(id, next), delay);
    }

    private synchronized void scheduleOnOwnThread(Runnable task, Duration delay) {
        if (closed) {
            return;
        }
        if (retries == null) {
            retries = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "gridstat-parent-retries");
                t.setDaemon(true);
                return t;
            });
        }
        retries.schedule(task, delay.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    /** Stops the retries; what is unfinished stays in the store for the next start. */
    @Override
    public void close() {
        java.util.concurrent.ScheduledExecutorService r;
        synchronized (this) {
            closed = true;
            r = retries;
        }
        if (r != null) {
            r.shutdownNow();
        }
    }

    /** The cloud of each router, learned from the leaves' topologies. */
    public static Map<String, List<String>> routersOf(Map<String, LeafBroker> leaves) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        leaves.forEach((cloud, leaf) -> {
            try {
                out.put(cloud, leaf.routers());
            } catch (RuntimeException e) {
                throw new IllegalStateException("cannot read cloud " + cloud + "'s topology: " + e.getMessage(), e);
            }
        });
        return out;
    }

    /** One cloud's leg as planned: where it enters (null in the publisher's cloud) and what it is given. */
    private record LegPlan(String cloud, String entryRouter, String exitRouter, String exitLink, String crossTo,
                           QosSpec qos, long afterNanos, long restAfterNanos) {
    }

    /** A subscription planned under the lock: its id, border links reserved, legs and intent. */
    private record Plan(long id, DeclaredVariable variable, List<Link> crossings, List<LegPlan> legs) {
    }

    /**
     * Admits a subscription to a variable declared in any cloud, delivered at
     * {@code subscriberRouter} over its out-link {@code subscriberLink}.
     *
     * @throws SubscriptionRejectedException naming the cloud or border link that cannot carry it
     */
    public CrossCloudSubscription subscribe(String variable, String subscriberRouter, String subscriberLink,
                                            QosSpec qos) throws SubscriptionRejectedException {
        String subscriberCloud = cloudOfRouter.get(subscriberRouter);
        if (subscriberCloud == null) {
            throw new SubscriptionRejectedException("no cloud has a router '" + subscriberRouter + "'");
        }
        Map.Entry<String, DeclaredVariable> origin = origin(variable); // asks the leaves: outside the lock
        Plan plan = plan(origin.getKey(), origin.getValue(), subscriberCloud, subscriberRouter, subscriberLink, qos);
        ParentIntent intent;
        synchronized (this) {
            intent = pending.get(plan.id());
        }
        DeclaredVariable v = plan.variable();
        List<CrossCloudSubscription.Segment> segments = new ArrayList<>();
        boolean made = false;
        try {
            for (int i = 0; i < plan.legs().size(); i++) {
                LegPlan leg = plan.legs().get(i);
                LeafBroker leaf = leaves.get(leg.cloud());
                if (leg.entryRouter() != null) {
                    markRelay(leg.cloud(), v.name()); // before declaring: a relay must never pass for the origin
                    leaf.declare(new VariableDeclaration(v.name(), leg.entryRouter(), v.frameBytes(), v.interval(),
                            v.serviceClass(), v.correlationGroup()));
                }
                intent = progress(intent.withLeg(i, ParentIntent.LegState.CALLING, null));
                BrokerSubscription s;
                try {
                    s = leaf.subscribe(v.name(), leg.exitRouter(), leg.exitLink(), leg.qos(), Duration.ofNanos(leg.afterNanos()),
                            Duration.ofNanos(leg.restAfterNanos()), intent.legs().get(i).key());
                } catch (SubscriptionRejectedException e) {
                    intent = intent.withLeg(i, ParentIntent.LegState.PLANNED, null); // refused: the leaf holds nothing
                    throw plan.legs().size() == 1 ? e : new SubscriptionRejectedException("cloud " + leg.cloud() + ": "
                            + e.reason());
                }
                intent = progress(intent.withLeg(i, ParentIntent.LegState.MADE, s.id()));
                segments.add(segment(leg.cloud(), leaf, s, leg.crossTo(), leg.qos().latencyBoundNanos()));
            }
            CrossCloudSubscription c = new CrossCloudSubscription(plan.id(), variable, v.id(), v.frameBytes(),
                    subscriberRouter, subscriberLink, qos, segments, plan.crossings().stream().map(Link::name).toList());
            synchronized (this) {
                if (store != null) {
                    try {
                        store.complete(c);
                    } catch (Exception e) {
                        throw new IllegalStateException("cannot record subscription " + c.id() + ": " + e.getMessage(), e);
                    }
                }
                pending.remove(c.id());
                subscriptions.put(c.id(), c);
            }
            made = true;
            return c;
        } finally {
            if (!made) {
                try {
                    undo(intent);
                } catch (RuntimeException e) {
                    LOG.warn("subscription {}: undoing it failed ({}); its border links stay reserved and it is retried "
                            + "in {} s", plan.id(), e.toString(), RETRY_FIRST.toSeconds());
                    retryLater(plan.id(), RETRY_FIRST);
                }
            }
        }
    }

    /**
     * Under the lock: gives the subscription its id, reserves its border links, plans each
     * cloud's leg and records the intent, before any leaf is asked for anything.
     */
    private synchronized Plan plan(String originCloud, DeclaredVariable v, String subscriberCloud, String subscriberRouter,
                                   String subscriberLink, QosSpec qos) throws SubscriptionRejectedException {
        long id = nextId;
        List<LegPlan> legs = new ArrayList<>();
        List<Link> crossings = List.of();
        List<Runnable> releases = new ArrayList<>();
        if (originCloud.equals(subscriberCloud)) {
            legs.add(new LegPlan(subscriberCloud, null, subscriberRouter, subscriberLink, null, qos, 0, 0));
        } else {
            if (qos.paths() != 1) {
                throw new SubscriptionRejectedException("a subscription across clouds takes one path; " + qos.paths() + " asked");
            }
            List<String> clouds = cloudPath(originCloud, subscriberCloud);
            if (clouds == null) {
                throw new SubscriptionRejectedException("no border links lead from cloud " + originCloud + " to cloud "
                        + subscriberCloud);
            }
            crossings = reserveBorders(id, v, qos, clouds, releases);
            long delays = crossings.stream().mapToLong(Link::delayNanos).sum();
            long share = (qos.latencyBoundNanos() - delays) / clouds.size();
            if (share < QosSpec.MIN_LATENCY_BOUND.toNanos()) {
                releases.forEach(Runnable::run);
                throw new SubscriptionRejectedException(String.format("the border links take %.1f ms of the %.1f ms bound,"
                        + " leaving too little for %d clouds", delays / 1e6, qos.latencyBoundNanos() / 1e6, clouds.size()));
            }
            for (int i = 0; i < clouds.size(); i++) {
                boolean last = i == clouds.size() - 1;
                String exitRouter = last ? subscriberRouter : crossings.get(i).from().id();
                String exitLink = last ? subscriberLink : crossings.get(i).to().id();
                String entry = i > 0 ? crossings.get(i - 1).to().id() : null;
                QosSpec part = QosSpec.builder().interval(qos.interval()).latencyBound(Duration.ofNanos(share)).paths(1)
                        .serviceClass(qos.serviceClass()).correlationGroup(qos.correlationGroup()).build();
                long after = (clouds.size() - 1 - i) * share;
                long restAfter = 0;
                for (int j = i; j < crossings.size(); j++) {
                    after += crossings.get(j).delayNanos();
                    restAfter += crossings.get(j).minTransitNanos(v.frameBytes() + SubscriptionRequest.PACKET_OVERHEAD);
                }
                legs.add(new LegPlan(clouds.get(i), entry, exitRouter, exitLink, last ? null : exitLink, part, after,
                        restAfter));
            }
        }
        List<ParentIntent.Leg> planned = new ArrayList<>();
        for (int i = 0; i < legs.size(); i++) {
            LegPlan l = legs.get(i);
            planned.add(new ParentIntent.Leg(l.cloud(), l.exitRouter(), l.exitLink(), QosDocument.of(l.qos()).withoutRate(),
                    l.afterNanos(), l.restAfterNanos(), ParentIntent.legKey(identity, id, i),
                    ParentIntent.undoKey(identity, id, i), ParentIntent.LegState.PLANNED, null));
        }
        ParentIntent intent = new ParentIntent(ParentIntent.SCHEMA, id, ParentIntent.Action.SUBSCRIBE, v.name(),
                v.id().value(), v.frameBytes(), subscriberRouter, subscriberLink, QosDocument.of(qos),
                crossings.stream().map(Link::name).toList(), planned);
        if (store != null) {
            try {
                store.begin(intent, id + 1);
            } catch (Exception e) {
                releases.forEach(Runnable::run);
                throw new IllegalStateException("cannot record the intent of subscription " + id + ": " + e.getMessage(), e);
            }
        }
        nextId = id + 1;
        pending.put(id, intent);
        return new Plan(id, v, crossings, legs);
    }

    /** Records an intent's progress before the next step, so a restart knows what the leaves may hold. */
    private ParentIntent progress(ParentIntent intent) {
        if (store != null) {
            try {
                store.update(intent);
            } catch (Exception e) {
                throw new IllegalStateException("cannot record the progress of subscription " + intent.id() + ": "
                        + e.getMessage(), e);
            }
        }
        synchronized (this) {
            pending.put(intent.id(), intent);
        }
        return intent;
    }

    /**
     * Undoes an unfinished subscription: a leg whose answer never came is asked for again under its
     * key, so the leaf answers with the subscription the first call made (or makes it now), and
     * its id is recorded; each leg made is torn down under its undo key; then its border links are
     * freed and it is forgotten. A leaf whose memory of keys no longer reaches back to the first
     * call (more than its last 1,000 changes since) takes the repeat for a new request: what the
     * repeat makes is torn down, and what the first call may have made stays at the leaf.
     *
     * @throws RuntimeException if a leaf cannot be reached: the intent and its border links stay
     */
    private void undo(ParentIntent intent) {
        for (int i = 0; i < intent.legs().size(); i++) {
            ParentIntent.Leg leg = intent.legs().get(i);
            LeafBroker leaf = leaves.get(leg.cloud());
            if (leg.state() == ParentIntent.LegState.CALLING) {
                LOG.info("subscription {}: asking cloud {} again for leg {} under key {}, to learn what it holds",
                        intent.id(), leg.cloud(), i, leg.key());
                try {
                    BrokerSubscription s = leaf.subscribe(intent.variable(), leg.router(), leg.link(), leg.qos().toSpec(),
                            Duration.ofNanos(leg.downstreamNanos()), Duration.ofNanos(leg.restNanos()), leg.key());
                    intent = progress(intent.withLeg(i, ParentIntent.LegState.MADE, s.id()));
                } catch (SubscriptionRejectedException refused) {
                    intent = progress(intent.withLeg(i, ParentIntent.LegState.PLANNED, null)); // the leaf holds nothing
                }
                leg = intent.legs().get(i);
            }
            if (leg.state() == ParentIntent.LegState.MADE) {
                leaf.unsubscribe(leg.leafSubscriptionId(), leg.undoKey()); // false if gone already: fine
            }
        }
        synchronized (this) {
            for (int i = 0; i < intent.legs().size(); i++) {
                borderAdmission.release(borderId(intent.id(), i)); // nothing if never reserved
            }
            forget(intent.id());
        }
    }

    private synchronized void forget(long id) {
        if (store != null) {
            try {
                store.forget(id);
            } catch (Exception e) {
                throw new IllegalStateException("cannot forget the intent of subscription " + id + ": " + e.getMessage(), e);
            }
        }
        pending.remove(id);
    }

    /**
     * Tears a subscription down in every cloud and frees its border links; false if unknown. The
     * teardown is recorded first: if a leaf cannot be reached the subscription stays (and its
     * border links stay reserved), and a retry with back-off, asking again, or the next start
     * finishes the job.
     */
    public boolean unsubscribe(long id) {
        try {
            return tearDown(id);
        } catch (RuntimeException e) {
            retryLater(id, RETRY_FIRST);
            throw e;
        }
    }

    private boolean tearDown(long id) {
        CrossCloudSubscription s;
        synchronized (this) {
            s = subscriptions.get(id);
            if (s == null) {
                return false;
            }
            ParentIntent teardown = ParentIntent.teardown(s, identity);
            if (store != null) {
                try {
                    store.update(teardown);
                } catch (Exception e) {
                    throw new IllegalStateException("cannot record the teardown of subscription " + id + ": "
                            + e.getMessage(), e);
                }
            }
            pending.put(id, teardown);
        }
        for (int i = 0; i < s.segments().size(); i++) {
            CrossCloudSubscription.Segment seg = s.segments().get(i);
            // false if gone already: fine
            leaves.get(seg.cloud()).unsubscribe(seg.leafSubscriptionId(), ParentIntent.undoKey(identity, id, i));
        }
        synchronized (this) {
            if (subscriptions.remove(id) == null) {
                return true; // a concurrent teardown finished first
            }
            if (store != null) {
                try {
                    store.removed(id);
                } catch (Exception e) {
                    subscriptions.put(id, s);
                    throw new IllegalStateException("cannot record the removal of subscription " + id + ": " + e.getMessage(), e);
                }
            }
            pending.remove(id);
            for (int i = 0; i < s.borderLinks().size(); i++) {
                borderAdmission.release(borderId(id, i));
            }
        }
        return true;
    }

    public synchronized List<CrossCloudSubscription> subscriptions() {
        return List.copyOf(subscriptions.values());
    }

    /** The ids of operations begun and not finished: under way, or left by a failed undo for the next start. */
    public synchronized Set<Long> pending() {
        return Set.copyOf(pending.keySet());
    }

    /** Bytes per second reserved for a class on a border link. */
    public synchronized long reserved(String from, String to, org.gridstat.core.model.ServiceClass c) {
        return borderAdmission.reserved(borders.link(from, to), c);
    }

    private void markRelay(String cloud, String variable) {
        if (relays.add(cloud + "|" + variable) && store != null) {
            try {
                store.relay(cloud, variable);
            } catch (Exception e) {
                relays.remove(cloud + "|" + variable);
                throw new IllegalStateException("cannot record the relay of " + variable + " into cloud " + cloud + ": "
                        + e.getMessage(), e);
            }
        }
    }

    /**
     * A segment with the hops its leaf admitted; {@code crossTo} is the next cloud's entry router,
     * which the segment's last hop leads to (null in the subscriber's cloud).
     */
    private static CrossCloudSubscription.Segment segment(String cloud, LeafBroker leaf, BrokerSubscription s,
                                                          String crossTo, long bound) {
        List<HopDocument> hops;
        try {
            hops = new ArrayList<>(leaf.hops(s.id()));
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot read subscription " + s.id() + " back from cloud " + cloud + ": " + e, e);
        }
        if (crossTo != null) {
            HopDocument exit = hops.remove(hops.size() - 1);
            hops.add(new HopDocument(exit.router(), crossTo, exit.budgetNanos()));
        }
        return new CrossCloudSubscription.Segment(cloud, s.id(), hops, crossTo == null ? s.subscriberLink() : crossTo, bound);
    }

    /** The cloud where the variable is published (not relayed), and its declaration there. */
    private Map.Entry<String, DeclaredVariable> origin(String variable) throws SubscriptionRejectedException {
        for (Map.Entry<String, LeafBroker> leaf : new TreeMap<>(leaves).entrySet()) {
            if (relays.contains(leaf.getKey() + "|" + variable)) {
                continue;
            }
            for (DeclaredVariable v : leaf.getValue().variables()) {
                if (v.name().equals(variable)) {
                    return Map.entry(leaf.getKey(), v);
                }
            }
        }
        throw new SubscriptionRejectedException("no cloud has a variable '" + variable + "' declared");
    }

    /** The clouds from one to another over the fewest border crossings, or null. */
    private List<String> cloudPath(String from, String to) {
        Map<String, String> previous = new HashMap<>();
        ArrayDeque<String> queue = new ArrayDeque<>(List.of(from));
        previous.put(from, from);
        while (!queue.isEmpty()) {
            String c = queue.poll();
            if (c.equals(to)) {
                List<String> path = new ArrayList<>();
                for (String at = to; !at.equals(from); at = previous.get(at)) {
                    path.add(at);
                }
                path.add(from);
                Collections.reverse(path);
                return path;
            }
            for (Link l : borders.links()) {
                if (l.from().cloud().equals(c) && previous.putIfAbsent(l.to().cloud(), c) == null) {
                    queue.add(l.to().cloud());
                }
            }
        }
        return null;
    }

    /**
     * Per consecutive pair of clouds, the border link of least delay that has the bandwidth;
     * reserved, and its release added to {@code releases}. On a refusal, what was reserved is released.
     */
    private List<Link> reserveBorders(long id, DeclaredVariable v, QosSpec qos, List<String> clouds, List<Runnable> releases)
            throws SubscriptionRejectedException {
        List<Link> chosen = new ArrayList<>();
        for (int i = 0; i + 1 < clouds.size(); i++) {
            String a = clouds.get(i);
            String b = clouds.get(i + 1);
            List<Link> candidates = borders.links().stream()
                    .filter(l -> l.from().cloud().equals(a) && l.to().cloud().equals(b))
                    .sorted(Comparator.comparingLong(Link::delayNanos)).toList();
            String reason = "";
            Link taken = null;
            long bid = borderId(id, i);
            for (Link l : candidates) {
                SubscriptionRequest r = new SubscriptionRequest(bid, v.id(), l.from().id(), l.to().id(), v.frameBytes(), qos);
                AdmissionResult result = borderAdmission.admitOver(r, List.of(l));
                if (result instanceof AdmissionResult.Admitted) {
                    taken = l;
                    break;
                }
                reason = ((AdmissionResult.Rejected) result).reason();
            }
            if (taken == null) {
                releases.forEach(Runnable::run);
                throw new SubscriptionRejectedException("border " + a + " -> " + b + ": " + reason);
            }
            releases.add(() -> borderAdmission.release(bid));
            chosen.add(taken);
        }
        return chosen;
    }

    private static long borderId(long id, int crossing) {
        return id * 64 + crossing;
    }
}
