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
import org.gridstat.client.BrokerConnection;
import org.gridstat.client.BrokerSubscription;
import org.gridstat.client.DeclaredVariable;
import org.gridstat.client.SubscriptionRejectedException;
import org.gridstat.client.VariableDeclaration;
import org.gridstat.core.management.SubscriptionDocument;
import org.gridstat.core.management.SubscriptionDocument.HopDocument;
import org.gridstat.core.model.QosSpec;

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
 * take one path. Operations are serialised.
 */
public final class ParentBroker {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ParentBroker.class);
    private final Topology borders;
    private final Map<String, BrokerConnection> leaves;
    private final Map<String, String> cloudOfRouter = new HashMap<>();
    private final AdmissionController borderAdmission;
    private final Map<Long, CrossCloudSubscription> subscriptions = new TreeMap<>();
    /** (cloud, variable) pairs the parent declared as relays, so a variable's origin is told apart. */
    private final Set<String> relays = new HashSet<>();
    private final ParentStore store;
    private long nextId = 1;

    /**
     * A parent keeping its subscriptions in memory only.
     *
     * @see #ParentBroker(Topology, Map, Map, ParentStore)
     */
    public ParentBroker(Topology borders, Map<String, BrokerConnection> leaves, Map<String, List<String>> routersByCloud) {
        this(borders, leaves, routersByCloud, null);
    }

    /**
     * A parent keeping its subscriptions in {@code store} (null: memory only), resuming those
     * stored: their border reservations are taken again and their segments stay with the leaves.
     *
     * @param borders the border routers, each with its {@code cloud}, and the links between clouds
     * @param leaves  each cloud's leaf broker
     * @param routersByCloud every router of each cloud (the leaves' topologies)
     * @throws IllegalArgumentException if a border router's cloud has no leaf or lacks that router,
     *                                  or a border link joins two routers of one cloud
     */
    public ParentBroker(Topology borders, Map<String, BrokerConnection> leaves, Map<String, List<String>> routersByCloud,
                        ParentStore store) {
        this.borders = borders;
        this.store = store;
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
        try {
            stored = store.load();
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
    }

    /** The cloud of each router, learned from the leaves' topologies. */
    public static Map<String, List<String>> routersOf(Map<String, BrokerConnection> leaves) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        leaves.forEach((cloud, leaf) -> {
            try {
                var routers = new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(leaf.request("GET", "/topology", null).body()).get("routers");
                List<String> ids = new ArrayList<>();
                routers.forEach(r -> ids.add(r.get("id").asText()));
                out.put(cloud, ids);
            } catch (java.io.IOException e) {
                throw new IllegalStateException("cannot read cloud " + cloud + "'s topology: " + e.getMessage(), e);
            }
        });
        return out;
    }

    /**
     * Admits a subscription to a variable declared in any cloud, delivered at
     * {@code subscriberRouter} over its out-link {@code subscriberLink}.
     *
     * @throws SubscriptionRejectedException naming the cloud or border link that cannot carry it
     */
    public synchronized CrossCloudSubscription subscribe(String variable, String subscriberRouter, String subscriberLink,
                                                         QosSpec qos) throws SubscriptionRejectedException {
        String subscriberCloud = cloudOfRouter.get(subscriberRouter);
        if (subscriberCloud == null) {
            throw new SubscriptionRejectedException("no cloud has a router '" + subscriberRouter + "'");
        }
        Map.Entry<String, DeclaredVariable> origin = origin(variable);
        DeclaredVariable v = origin.getValue();
        long id = nextId++;
        if (origin.getKey().equals(subscriberCloud)) {
            BrokerConnection leaf = leaves.get(subscriberCloud);
            BrokerSubscription s = leaf.subscribe(variable, subscriberRouter, subscriberLink, qos);
            Undo undo = new Undo();
            undo.push(() -> leaf.unsubscribe(s.id()));
            try {
                CrossCloudSubscription c = remember(new CrossCloudSubscription(id, variable, v.id(), v.frameBytes(),
                        subscriberRouter, subscriberLink, qos,
                        List.of(segment(subscriberCloud, leaf, s, null, qos.latencyBoundNanos())), List.of()));
                undo.clear();
                return c;
            } finally {
                undo.run();
            }
        }
        if (qos.paths() != 1) {
            throw new SubscriptionRejectedException("a subscription across clouds takes one path; " + qos.paths() + " asked");
        }
        List<String> clouds = cloudPath(origin.getKey(), subscriberCloud);
        if (clouds == null) {
            throw new SubscriptionRejectedException("no border links lead from cloud " + origin.getKey() + " to cloud "
                    + subscriberCloud);
        }
        Undo undo = new Undo();
        try {
            List<Link> crossings = reserveBorders(id, v, qos, clouds, undo);
            long delays = crossings.stream().mapToLong(Link::delayNanos).sum();
            long share = (qos.latencyBoundNanos() - delays) / clouds.size();
            if (share < QosSpec.MIN_LATENCY_BOUND.toNanos()) {
                throw new SubscriptionRejectedException(String.format("the border links take %.1f ms of the %.1f ms bound,"
                        + " leaving too little for %d clouds", delays / 1e6, qos.latencyBoundNanos() / 1e6, clouds.size()));
            }
            List<CrossCloudSubscription.Segment> segments = new ArrayList<>();
            for (int i = 0; i < clouds.size(); i++) {
                String cloud = clouds.get(i);
                BrokerConnection leaf = leaves.get(cloud);
                boolean last = i == clouds.size() - 1;
                String exitRouter = last ? subscriberRouter : crossings.get(i).from().id();
                String exitLink = last ? subscriberLink : crossings.get(i).to().id();
                if (i > 0) {
                    String entry = crossings.get(i - 1).to().id();
                    markRelay(cloud, v.name()); // before declaring: a relay must never pass for the origin
                    leaf.declare(new VariableDeclaration(v.name(), entry, v.frameBytes(), v.interval(), v.serviceClass(),
                            v.correlationGroup()));
                }
                QosSpec part = QosSpec.builder().interval(qos.interval()).latencyBound(Duration.ofNanos(share)).paths(1)
                        .serviceClass(qos.serviceClass()).correlationGroup(qos.correlationGroup()).build();
                long after = (clouds.size() - 1 - i) * share;
                long restAfter = 0;
                for (int j = i; j < crossings.size(); j++) {
                    after += crossings.get(j).delayNanos();
                    restAfter += crossings.get(j).minTransitNanos(v.frameBytes() + SubscriptionRequest.PACKET_OVERHEAD);
                }
                BrokerSubscription s;
                try {
                    s = leaf.subscribe(v.name(), exitRouter, exitLink, part, Duration.ofNanos(after),
                            Duration.ofNanos(restAfter));
                } catch (SubscriptionRejectedException e) {
                    throw new SubscriptionRejectedException("cloud " + cloud + ": " + e.reason());
                }
                undo.push(() -> leaf.unsubscribe(s.id()));
                segments.add(segment(cloud, leaf, s, last ? null : exitLink, share));
            }
            CrossCloudSubscription c = remember(new CrossCloudSubscription(id, variable, v.id(), v.frameBytes(),
                    subscriberRouter, subscriberLink, qos, segments, crossings.stream().map(Link::name).toList()));
            undo.clear();
            return c;
        } finally {
            undo.run();
        }
    }

    /** Tears a subscription down in every cloud and frees its border links; false if unknown. */
    public synchronized boolean unsubscribe(long id) {
        CrossCloudSubscription s = subscriptions.get(id);
        if (s == null) {
            return false;
        }
        // every leaf first: if one cannot be reached, the subscription stays, and asking again finishes the job
        for (CrossCloudSubscription.Segment seg : s.segments()) {
            leaves.get(seg.cloud()).unsubscribe(seg.leafSubscriptionId()); // false if gone already: fine
        }
        if (store != null) {
            try {
                store.remove(id);
            } catch (Exception e) {
                throw new IllegalStateException("cannot record the removal of subscription " + id + ": " + e.getMessage(), e);
            }
        }
        subscriptions.remove(id);
        for (int i = 0; i < s.borderLinks().size(); i++) {
            borderAdmission.release(borderId(id, i));
        }
        return true;
    }

    public synchronized List<CrossCloudSubscription> subscriptions() {
        return List.copyOf(subscriptions.values());
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

    /** Records a subscription, in the store first; the caller undoes the leaves' work if this throws. */
    private CrossCloudSubscription remember(CrossCloudSubscription s) {
        if (store != null) {
            try {
                store.put(s, nextId);
            } catch (Exception e) {
                throw new IllegalStateException("cannot record subscription " + s.id() + ": " + e.getMessage(), e);
            }
        }
        subscriptions.put(s.id(), s);
        return s;
    }

    /**
     * A segment with the hops its leaf admitted; {@code crossTo} is the next cloud's entry router,
     * which the segment's last hop leads to (null in the subscriber's cloud).
     */
    private static CrossCloudSubscription.Segment segment(String cloud, BrokerConnection leaf, BrokerSubscription s,
                                                          String crossTo, long bound) {
        List<HopDocument> hops;
        try {
            SubscriptionDocument d = new com.fasterxml.jackson.databind.ObjectMapper()
                    .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
                    .readValue(leaf.request("GET", "/subscriptions/" + s.id(), null).body(), SubscriptionDocument.class);
            hops = new ArrayList<>(d.paths().get(0));
        } catch (java.io.IOException | RuntimeException e) {
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
        for (Map.Entry<String, BrokerConnection> leaf : new TreeMap<>(leaves).entrySet()) {
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

    /** Per consecutive pair of clouds, the border link of least delay that has the bandwidth; reserved. */
    private List<Link> reserveBorders(long id, DeclaredVariable v, QosSpec qos, List<String> clouds, Undo undo)
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
                throw new SubscriptionRejectedException("border " + a + " -> " + b + ": " + reason);
            }
            undo.push(() -> borderAdmission.release(bid));
            chosen.add(taken);
        }
        return chosen;
    }

    private static long borderId(long id, int crossing) {
        return id * 64 + crossing;
    }

    /** What to take back if a subscription fails half way, most recent first. */
    private static final class Undo {
        private final ArrayDeque<Runnable> steps = new ArrayDeque<>();

        void push(Runnable step) {
            steps.push(step);
        }

        void clear() {
            steps.clear();
        }

        /** Runs every step, even after one fails; failures are logged, since the original outcome stands. */
        void run() {
            while (!steps.isEmpty()) {
                try {
                    steps.pop().run();
                } catch (RuntimeException e) {
                    LOG.error("undoing part of a refused subscription failed; it may be left behind: {}", e.toString());
                }
            }
        }
    }
}
