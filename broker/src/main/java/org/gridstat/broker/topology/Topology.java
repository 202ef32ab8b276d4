package org.gridstat.broker.topology;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridstat.core.model.ServiceClass;

/** Routers and directed links, indexed for path computation. Immutable. */
public final class Topology {
    private final List<RouterNode> routers;
    private final Map<String, RouterNode> byId;
    private final List<Link> links;
    private final List<List<Link>> outgoing;
    private final Map<String, Link> byName;

    private Topology(List<RouterNode> routers, List<Link> links) {
        this.routers = List.copyOf(routers);
        this.links = List.copyOf(links);
        Map<String, RouterNode> m = new LinkedHashMap<>();
        for (RouterNode r : routers) {
            m.put(r.id(), r);
        }
        this.byId = Collections.unmodifiableMap(m);
        List<List<Link>> out = new ArrayList<>();
        for (int i = 0; i < routers.size(); i++) {
            out.add(new ArrayList<>());
        }
        for (Link l : links) {
            out.get(l.from().index()).add(l);
        }
        this.outgoing = out.stream().map(List::copyOf).toList();
        Map<String, Link> names = new LinkedHashMap<>();
        for (Link l : links) {
            names.put(l.name(), l);
        }
        this.byName = Collections.unmodifiableMap(names);
    }

    /**
     * Parses topology text in the file format; {@code source} names it in error messages.
     *
     * @throws IllegalArgumentException naming the source and line of the first problem
     */
    public static Topology parse(String text, String source) {
        return TopologyFile.parse(new java.io.StringReader(text), source);
    }

    /** This topology in the file format; {@link #parse} of the text gives an equal topology. */
    public String toText() {
        return TopologyFile.format(this);
    }

    /**
     * Reads a topology file (format in {@code docs/topology.md}).
     *
     * @throws IllegalArgumentException naming the file and line of the first problem
     */
    public static Topology load(Path file) {
        try (Reader r = Files.newBufferedReader(file)) {
            return TopologyFile.parse(r, file.toString());
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public List<RouterNode> routers() {
        return routers;
    }

    public List<Link> links() {
        return links;
    }

    /** The router with this id, or {@code null}. */
    public RouterNode router(String id) {
        return byId.get(id);
    }

    /** The link from one router to another, or {@code null}. */
    public Link link(String from, String to) {
        return byName.get(from + "->" + to);
    }

    public List<Link> outgoing(RouterNode r) {
        return outgoing.get(r.index());
    }

    /** Builds a topology in code; the file parser uses it too. */
    public static final class Builder {
        public static final long DEFAULT_QUEUEING_BUDGET = 1_000_000L;

        private final List<RouterNode> routers = new ArrayList<>();
        private final Map<String, RouterNode> byId = new LinkedHashMap<>();
        private final List<Link> links = new ArrayList<>();
        private final Map<String, Link> linkByName = new LinkedHashMap<>();

        private Builder() {
        }

        public Builder router(String id, long forwardingCapacity, long queueingBudgetNanos, String cloud) {
            if (id == null || id.isBlank()) {
                throw new IllegalArgumentException("router id is empty");
            }
            if (byId.containsKey(id)) {
                throw new IllegalArgumentException("router " + id + " is declared twice");
            }
            RouterNode r = new RouterNode(id, routers.size(), forwardingCapacity, queueingBudgetNanos, cloud);
            routers.add(r);
            byId.put(id, r);
            return this;
        }

        public Builder router(String id, long forwardingCapacity) {
            return router(id, forwardingCapacity, DEFAULT_QUEUEING_BUDGET, "");
        }

        /** A link in one direction. */
        public Builder link(String from, String to, long bandwidth, long delayNanos, Map<ServiceClass, Integer> shares) {
            RouterNode f = known(from);
            RouterNode t = known(to);
            if (f == t) {
                throw new IllegalArgumentException("link " + from + "->" + to + " loops back to its router");
            }
            int total = 0;
            for (Map.Entry<ServiceClass, Integer> e : shares.entrySet()) {
                if (e.getKey() == ServiceClass.CONTROL || e.getValue() < 0 || e.getValue() > 100) {
                    throw new IllegalArgumentException("link " + from + "->" + to + ": shares are HRT, LRT, BE in 0..100 %");
                }
                total += e.getValue();
            }
            if (total > 100) {
                throw new IllegalArgumentException("link " + from + "->" + to + ": class shares add up to " + total + " %");
            }
            Link l = new Link(links.size(), f, t, bandwidth, delayNanos, shares);
            if (linkByName.putIfAbsent(l.name(), l) != null) {
                throw new IllegalArgumentException("link " + l.name() + " is declared twice");
            }
            links.add(l);
            return this;
        }

        /** A link in both directions with the same parameters. */
        public Builder between(String a, String b, long bandwidth, long delayNanos, Map<ServiceClass, Integer> shares) {
            link(a, b, bandwidth, delayNanos, shares);
            return link(b, a, bandwidth, delayNanos, shares);
        }

        public static Map<ServiceClass, Integer> defaultShares() {
            Map<ServiceClass, Integer> m = new EnumMap<>(ServiceClass.class);
            m.put(ServiceClass.HRT, 50);
            m.put(ServiceClass.LRT, 30);
            m.put(ServiceClass.BE, 20);
            return m;
        }

        private RouterNode known(String id) {
            RouterNode r = byId.get(id);
            if (r == null) {
                throw new IllegalArgumentException("no router '" + id + "'");
            }
            return r;
        }

        public Topology build() {
            if (routers.isEmpty()) {
                throw new IllegalArgumentException("a topology needs at least one router");
            }
            return new Topology(routers, links);
        }
    }
}
