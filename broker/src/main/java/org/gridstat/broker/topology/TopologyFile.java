package org.gridstat.broker.topology;

import java.io.Reader;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.gridstat.core.model.DurationText;
import org.gridstat.core.model.ServiceClass;
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
    private static final Set<String> ROUTER = Set.of("id", "capacity", "queueing", "cloud");
    private static final Set<String> LINK = Set.of("between", "from", "to", "bandwidth", "delay", "hrt", "lrt", "be");

    private final String source;

    private TopologyFile(String source) {
        this.source = source;
    }

    static Topology parse(Reader reader, String source) {
        Node root;
        try {
            root = new Yaml(new LoaderOptions()).compose(reader);
        } catch (YAMLException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
        return new TopologyFile(source).read(root);
    }

    private Topology read(Node root) {
        if (!(root instanceof MappingNode)) {
            throw error(root, "expected a mapping with 'routers' and 'links'");
        }
        Map<String, Node> top = fields((MappingNode) root, TOP);
        Topology.Builder b = Topology.builder();
        for (Node r : sequence(top.get("routers"), "routers", root)) {
            Map<String, Node> f = fields(mapping(r, "router"), ROUTER);
            try {
                b.router(text(f, "id", r), number(f, "capacity", r, -1),
                        f.containsKey("queueing") ? duration(f.get("queueing")) : Topology.Builder.DEFAULT_QUEUEING_BUDGET,
                        f.containsKey("cloud") ? scalar(f.get("cloud")) : "");
            } catch (IllegalArgumentException e) {
                throw error(r, e.getMessage());
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
        return b.build();
    }

    private Map<String, Node> fields(MappingNode m, Set<String> allowed) {
        Map<String, Node> out = new HashMap<>();
        for (NodeTuple t : m.getValue()) {
            String key = scalar(t.getKeyNode());
            if (!allowed.contains(key)) {
                throw error(t.getKeyNode(), "unknown key '" + key + "' (known: " + String.join(", ", allowed) + ")");
            }
            out.put(key, t.getValueNode());
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

    private IllegalArgumentException error(Node n, String why) {
        return new IllegalArgumentException(source + " line " + (n.getStartMark().getLine() + 1) + ": " + why);
    }
}
