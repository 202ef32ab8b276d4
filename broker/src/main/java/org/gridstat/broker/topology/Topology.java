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
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.control.ControlMessage.Emulation;
import org.gridstat.core.control.ControlMessage.OutLink;
import org.gridstat.core.control.ControlMessage.OutLinks;
import org.gridstat.core.model.Endpoint;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.wire.WireFormat;

/** Routers and directed links, indexed for path computation. Immutable. */
public final class Topology {
    private final List<RouterNode> routers;
    private final Map<String, RouterNode> byId;
    private final List<Link> links;
    private final List<List<Link>> outgoing;
    private final Map<String, Link> byName;
    /** Whether any router has delivery links: then every router's are known. */
    private final boolean declaresDelivery;

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
        this.declaresDelivery = routers.stream().anyMatch(r -> !r.delivery().isEmpty());
    }

    /**
     * Parses topology text in the file format; {@code source} names it in error messages.
     *
     * @throws IllegalArgumentException naming the source and line of the first problem
     */
    public static Topology parse(String text, String source) {
        return TopologyFile.parse(new java.io.StringReader(text), source);
    }

    /**
     * Reads a topology in the file format that is one node of a larger YAML document, such as a
     * simulation scenario's inline topology: errors name the node's place as {@code where} gives
     * it (for example {@code "scenario.yaml line 12"}); each of its answers begins with
     * {@code source}.
     *
     * @throws IllegalArgumentException naming the place of the first problem
     */
    public static Topology parse(org.yaml.snakeyaml.nodes.Node node, String source,
                                 java.util.function.Function<org.yaml.snakeyaml.nodes.Node, String> where) {
        return TopologyFile.parse(node, source, where);
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

    /**
     * The out-links the broker gives router {@code r}: one per link to a neighbour whose data address
     * the topology gives (named for the neighbour, as flows name it; the link's bandwidth and class
     * shares; no emulation, the link itself has its delay), then its delivery links.
     */
    public List<OutLink> outLinks(RouterNode r) {
        List<OutLink> out = new ArrayList<>();
        for (Link l : outgoing(r)) {
            RouterNode to = l.to();
            if (to.address() != null) {
                out.add(new OutLink(to.id(), to.address(), to.priority(), l.bandwidth(),
                        l.sharePercent().getOrDefault(ServiceClass.HRT, 0), l.sharePercent().getOrDefault(ServiceClass.LRT, 0),
                        l.sharePercent().getOrDefault(ServiceClass.BE, 0), 0, WireFormat.MAX_FRAME_LENGTH, Emulation.NONE));
            }
        }
        out.addAll(r.delivery());
        return out;
    }

    /**
     * Why a subscription may not be delivered at {@code router} over its out-link {@code link}, or
     * {@code null} if it may. A topology that declares delivery links at any router declares them
     * all: a router then delivers over its declared ones only (none if it declares none). A topology
     * that declares none takes any name, as the routers' own files then say which links they have.
     * An unknown router is left to admission, which names it.
     */
    public String deliveryRefusal(String router, String link) {
        RouterNode r = byId.get(router);
        if (r == null || !declaresDelivery || r.deliveryLink(link) != null) {
            return null;
        }
        return r.delivery().isEmpty() ? "router " + router + " has no delivery links in the topology, so none '" + link + "'"
                : "router " + router + " has no delivery link '" + link + "' (its delivery links: "
                + String.join(", ", r.delivery().stream().map(OutLink::name).toList()) + ")";
    }

    /** A router's out-links must have distinct names and fit one control message. */
    private void checkOutLinks(RouterNode r) {
        for (Link l : outgoing(r)) {
            if (r.deliveryLink(l.to().id()) != null) {
                throw new IllegalArgumentException("router " + r.id() + ": delivery link '" + l.to().id()
                        + "' has the name of its link to router " + l.to().id());
            }
        }
        List<OutLink> out = outLinks(r);
        if (!out.isEmpty()) {
            try {
                ControlCodec.encode(0, new OutLinks(out));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("router " + r.id() + ": its out-links do not fit a control message: "
                        + e.getMessage(), e);
            }
        }
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
            return router(id, forwardingCapacity, queueingBudgetNanos, cloud, null, null, List.of());
        }

        /**
         * A router with its data address ({@code null}: not given), priority port ({@code null}:
         * none) and delivery links to subscribers.
         */
        public Builder router(String id, long forwardingCapacity, long queueingBudgetNanos, String cloud,
                              Endpoint address, Endpoint priority, List<OutLink> delivery) {
            if (!Names.valid(id)) {
                throw new IllegalArgumentException("router id '" + id + "' must be " + Names.rule());
            }
            for (OutLink d : delivery) {
                if (!Names.valid(d.name())) {
                    throw new IllegalArgumentException("router " + id + ": delivery link '" + d.name() + "' must be "
                            + Names.rule());
                }
            }
            if (byId.containsKey(id)) {
                throw new IllegalArgumentException("router " + id + " is declared twice");
            }
            RouterNode r = new RouterNode(id, routers.size(), forwardingCapacity, queueingBudgetNanos, cloud, address,
                    priority, delivery);
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
            Topology t = new Topology(routers, links);
            for (RouterNode r : routers) {
                t.checkOutLinks(r);
            }
            return t;
        }
    }
}
