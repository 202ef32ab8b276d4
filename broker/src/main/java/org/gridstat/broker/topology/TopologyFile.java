package org.gridstat.broker.topology;

import java.io.Reader;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.gridstat.core.control.ControlMessage.Emulation;
import org.gridstat.core.control.ControlMessage.OutLink;
import org.gridstat.core.model.DurationText;
import org.gridstat.core.model.Endpoint;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.wire.WireFormat;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Reads a topology file through SnakeYAML's node tree, which keeps the line of every entry, so each
 * error names where it is.
 */
final class TopologyFile {
    private static final Set<String> TOP = Set.of("routers", "links");
    private static final Set<String> ROUTER = Set.of("id", "capacity", "queueing", "cloud", "address", "priority", "delivery");
    /** A delivery link: the keys of a link in a router's own file. */
    private static final Set<String> DELIVERY = Set.of("name", "address", "priority", "capacity", "hrt", "lrt", "be", "burst",
            "mtu", "delay", "loss", "faultEvery", "faultFor", "seed", "queue");
    /** A router's link capacity when its file or the topology gives none: 1 Gbit/s. */
    static final long DEFAULT_DELIVERY_CAPACITY = 125_000_000L;
    private static final Set<String> LINK = Set.of("between", "from", "to", "bandwidth", "delay", "hrt", "lrt", "be");

    private final String source;
    /** How an error names a node's place; each answer begins with {@link #source}. */
    private final Function<Node, String> where;

    private TopologyFile(String source, Function<Node, String> where) {
        this.source = source;
        this.where = where;
    }

    static Topology parse(Reader reader, String source) {
        Node root;
        try {
            root = new Yaml(new LoaderOptions()).compose(reader);
        } catch (YAMLException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
        if (root == null) {
            throw new IllegalArgumentException(source + ": empty; expected a mapping with 'routers' and 'links'");
        }
        return new TopologyFile(source, n -> source + " line " + (n.getStartMark().getLine() + 1)).read(root);
    }

    /** A topology that is one node of a larger document; {@code where} names a node's place in it. */
    static Topology parse(Node root, String source, Function<Node, String> where) {
        return new TopologyFile(source, where).read(root);
    }

    private Topology read(Node root) {
        if (!(root instanceof MappingNode)) {
            throw error(root, "expected a mapping with 'routers' and 'links'");
        }
        Map<String, Node> top = fields((MappingNode) root, TOP);
        Topology.Builder b = Topology.builder();
        for (Node r : sequence(top.get("routers"), "routers", root)) {
            Map<String, Node> f = fields(mapping(r, "router"), ROUTER);
            List<OutLink> delivery = new ArrayList<>();
            if (f.containsKey("delivery")) {
                for (Node d : sequence(f.get("delivery"), "delivery", r)) {
                    delivery.add(deliveryLink(d));
                }
            }
            try {
                b.router(text(f, "id", r), number(f, "capacity", r, -1),
                        f.containsKey("queueing") ? duration(f.get("queueing")) : Topology.Builder.DEFAULT_QUEUEING_BUDGET,
                        f.containsKey("cloud") ? scalar(f.get("cloud")) : "",
                        f.containsKey("address") ? endpoint(f.get("address")) : null,
                        f.containsKey("priority") ? endpoint(f.get("priority")) : null, delivery);
            } catch (IllegalArgumentException e) {
                throw e.getMessage().startsWith(source) ? e : error(r, e.getMessage());
            }
        }
        for (Node l : sequence(top.get("links"), "links", root)) {
            Map<String, Node> f = fields(mapping(l, "link"), LINK);
            try {
                Map<ServiceClass, Integer> shares = new EnumMap<>(ServiceClass.class);
                shares.put(ServiceClass.HRT, (int) number(f, "hrt", l, 50));
                shares.put(ServiceClass.LRT, (int) number(f, "lrt", l, 30));
                shares.put(ServiceClass.BE, (int) number(f, "be", l, 20));
                long bandwidth = number(f, "bandwidth", l, -1);
                long delay = f.containsKey("delay") ? duration(f.get("delay")) : 0;
                if (f.containsKey("between")) {
                    List<Node> ends = sequence(f.get("between"), "between", l);
                    if (ends.size() != 2 || f.containsKey("from") || f.containsKey("to")) {
                        throw error(l, "'between' takes exactly two routers, and no 'from'/'to'");
                    }
                    b.between(scalar(ends.get(0)), scalar(ends.get(1)), bandwidth, delay, shares);
                } else {
                    b.link(text(f, "from", l), text(f, "to", l), bandwidth, delay, shares);
                }
            } catch (IllegalArgumentException e) {
                throw e.getMessage().startsWith(source) ? e : error(l, e.getMessage());
            }
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
    }

    private OutLink deliveryLink(Node d) {
        Map<String, Node> f = fields(mapping(d, "delivery link"), DELIVERY);
        try {
            Emulation emulation = new Emulation(f.containsKey("delay") ? duration(f.get("delay")) : 0,
                    decimal(f, "loss"), f.containsKey("faultEvery") ? duration(f.get("faultEvery")) : 0,
                    f.containsKey("faultFor") ? duration(f.get("faultFor")) : 0, number(f, "seed", d, 1),
                    number(f, "queue", d, 0));
            return new OutLink(text(f, "name", d), endpoint(required(f, "address", d)),
                    f.containsKey("priority") ? endpoint(f.get("priority")) : null,
                    number(f, "capacity", d, DEFAULT_DELIVERY_CAPACITY), (int) number(f, "hrt", d, 50),
                    (int) number(f, "lrt", d, 30), (int) number(f, "be", d, 20), number(f, "burst", d, 0),
                    (int) number(f, "mtu", d, WireFormat.MAX_FRAME_LENGTH), emulation);
        } catch (IllegalArgumentException e) {
            throw e.getMessage().startsWith(source) ? e : error(d, e.getMessage());
        }
    }

    private Node required(Map<String, Node> f, String key, Node at) {
        Node n = f.get(key);
        if (n == null) {
            throw error(at, "'" + key + "' is missing");
        }
        return n;
    }

    private Endpoint endpoint(Node n) {
        try {
            return Endpoint.parse(scalar(n));
        } catch (IllegalArgumentException e) {
            throw error(n, e.getMessage());
        }
    }

    private double decimal(Map<String, Node> f, String key) {
        Node n = f.get(key);
        if (n == null) {
            return 0;
        }
        try {
            return Double.parseDouble(scalar(n));
        } catch (NumberFormatException e) {
            throw error(n, key + " '" + scalar(n) + "' is not a number");
        }
    }

    private Map<String, Node> fields(MappingNode m, Set<String> allowed) {
        Map<String, Node> out = new HashMap<>();
        for (NodeTuple t : m.getValue()) {
            String key = scalar(t.getKeyNode());
            if (!allowed.contains(key)) {
                throw error(t.getKeyNode(), "unknown key '" + key + "' (known: " + String.join(", ", allowed) + ")");
            }
            if (out.put(key, t.getValueNode()) != null) {
                throw error(t.getKeyNode(), "'" + key + "' is given twice");
            }
        }
        return out;
    }

    private MappingNode mapping(Node n, String what) {
        if (!(n instanceof MappingNode)) {
            throw error(n, "each " + what + " is a mapping");
        }
        return (MappingNode) n;
    }

    private List<Node> sequence(Node n, String what, Node parent) {
        if (n == null) {
            throw error(parent, "'" + what + "' is missing");
        }
        if (!(n instanceof SequenceNode)) {
            throw error(n, "'" + what + "' is a list");
        }
        return ((SequenceNode) n).getValue();
    }

    private String scalar(Node n) {
        if (!(n instanceof ScalarNode)) {
            throw error(n, "expected a single value");
        }
        return ((ScalarNode) n).getValue();
    }

    private String text(Map<String, Node> f, String key, Node at) {
        Node n = f.get(key);
        if (n == null) {
            throw error(at, "'" + key + "' is missing");
        }
        return scalar(n);
    }

    private long number(Map<String, Node> f, String key, Node at, long otherwise) {
        Node n = f.get(key);
        if (n == null) {
            if (otherwise < 0) {
                throw error(at, "'" + key + "' is missing");
            }
            return otherwise;
        }
        try {
            return Long.parseLong(scalar(n).replace("_", ""));
        } catch (NumberFormatException e) {
            throw error(n, key + " '" + scalar(n) + "' is not a whole number");
        }
    }

    private long duration(Node n) {
        try {
            return DurationText.nanos(scalar(n));
        } catch (IllegalArgumentException e) {
            throw error(n, e.getMessage());
        }
    }

    /** Writes a topology in this format, every link one direction, durations in nanoseconds. */
    static String format(Topology t) {
        List<Map<String, Object>> routers = new java.util.ArrayList<>();
        for (RouterNode r : t.routers()) {
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("id", r.id());
            m.put("capacity", r.forwardingCapacity());
            m.put("queueing", r.queueingBudgetNanos() + "ns");
            if (!r.cloud().isEmpty()) {
                m.put("cloud", r.cloud());
            }
            if (r.address() != null) {
                m.put("address", r.address().toString());
            }
            if (r.priority() != null) {
                m.put("priority", r.priority().toString());
            }
            if (!r.delivery().isEmpty()) {
                m.put("delivery", r.delivery().stream().map(TopologyFile::format).toList());
            }
            routers.add(m);
        }
        List<Map<String, Object>> links = new java.util.ArrayList<>();
        for (Link l : t.links()) {
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("from", l.from().id());
            m.put("to", l.to().id());
            m.put("bandwidth", l.bandwidth());
            m.put("delay", l.delayNanos() + "ns");
            m.put("hrt", l.sharePercent().getOrDefault(ServiceClass.HRT, 0));
            m.put("lrt", l.sharePercent().getOrDefault(ServiceClass.LRT, 0));
            m.put("be", l.sharePercent().getOrDefault(ServiceClass.BE, 0));
            links.add(m);
        }
        Map<String, Object> root = new java.util.LinkedHashMap<>();
        root.put("routers", routers);
        root.put("links", links);
        org.yaml.snakeyaml.DumperOptions o = new org.yaml.snakeyaml.DumperOptions();
        o.setDefaultFlowStyle(org.yaml.snakeyaml.DumperOptions.FlowStyle.BLOCK);
        return new Yaml(o).dump(root);
    }

    private static Map<String, Object> format(OutLink l) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("name", l.name());
        m.put("address", l.address().toString());
        if (l.priority() != null) {
            m.put("priority", l.priority().toString());
        }
        m.put("capacity", l.capacity());
        m.put("hrt", l.hrtPercent());
        m.put("lrt", l.lrtPercent());
        m.put("be", l.bePercent());
        if (l.burstBytes() > 0) {
            m.put("burst", l.burstBytes());
        }
        m.put("mtu", l.mtu());
        Emulation e = l.emulation();
        if (!e.equals(Emulation.NONE)) {
            m.put("delay", e.delayNanos() + "ns");
            m.put("loss", e.loss());
            m.put("faultEvery", e.faultEveryNanos() + "ns");
            m.put("faultFor", e.faultForNanos() + "ns");
            m.put("seed", e.seed());
            m.put("queue", e.queueBytes());
        }
        return m;
    }

    private IllegalArgumentException error(Node n, String why) {
        return new IllegalArgumentException(where.apply(n) + ": " + why);
    }
}
