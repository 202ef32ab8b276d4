package org.gridstat.sim.scenario;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * {@code --set key=value} overrides, applied to a scenario's YAML tree before it is read, so an
 * override is checked exactly as the file is. The key is a dotted path: mapping keys
 * ({@code links.r1->r2.discipline}), list indices from 0 ({@code subscriptions.0.rate}) or the
 * {@code label} or {@code name} of a list's entry ({@code subscriptions.cc.rate}). Keys and names
 * that hold dots themselves are matched whole. Every step but the last must exist; the last may
 * add a key to a mapping. The value is YAML: {@code 30}, {@code 10s}, {@code [100, 1400]} or
 * {@code {discipline: fifo}}; an empty value is YAML's null, which a field reads as not given.
 */
final class Overrides {
    private Overrides() {
    }

    static void apply(MappingNode root, Map<String, String> overrides, Places places) {
        for (Map.Entry<String, String> o : overrides.entrySet()) {
            apply(root, o.getKey(), o.getValue(), places);
        }
    }

    private static void apply(MappingNode root, String key, String value, Places places) {
        String setting = key + "=" + value;
        if (key.isEmpty() || key.startsWith(".") || key.endsWith(".") || key.contains("..")) {
            throw error(places, setting, "'" + key + "' is not a dotted path such as duration or links.r1->r2.mtu");
        }
        Node replacement = parse(value, places, setting);
        places.override(replacement, setting);
        String[] steps = key.split("\\.");
        Node at = root;
        List<String> done = new ArrayList<>();
        int i = 0;
        while (true) {
            if (at instanceof MappingNode m) {
                int end = -1;
                int index = -1;
                for (int j = steps.length; j > i && end < 0; j--) {
                    index = keyIndex(m, join(steps, i, j));
                    if (index >= 0) {
                        end = j;
                    }
                }
                if (end < 0) {
                    if (i == steps.length - 1) {
                        ScalarNode k = new ScalarNode(Tag.STR, steps[i], null, null, DumperOptions.ScalarStyle.PLAIN);
                        places.override(k, setting);
                        m.getValue().add(new NodeTuple(k, replacement));
                        return;
                    }
                    throw error(places, setting, where(done) + " has no '" + steps[i] + "' (it has: "
                            + Section.known(keys(m)) + ")");
                }
                NodeTuple t = m.getValue().get(index);
                done.add(join(steps, i, end));
                if (end == steps.length) {
                    m.getValue().set(index, new NodeTuple(t.getKeyNode(), replacement));
                    return;
                }
                at = t.getValueNode();
                i = end;
            } else if (at instanceof SequenceNode s) {
                int end = -1;
                int index = -1;
                if (steps[i].matches("\\d{1,9}")) {
                    index = Integer.parseInt(steps[i]);
                    if (index >= s.getValue().size()) {
                        throw error(places, setting, where(done) + " has " + s.getValue().size() + " entries, so no entry "
                                + index + " (they count from 0)");
                    }
                    end = i + 1;
                } else {
                    for (int j = steps.length; j > i && end < 0; j--) {
                        index = entryNamed(s, join(steps, i, j));
                        if (index >= 0) {
                            end = j;
                        }
                    }
                    if (end < 0) {
                        throw error(places, setting, where(done) + " has no entry " + steps[i]
                                + " (give an index from 0, or an entry's label or name)");
                    }
                }
                done.add(join(steps, i, end));
                if (end == steps.length) {
                    s.getValue().set(index, replacement);
                    return;
                }
                at = s.getValue().get(index);
                i = end;
            } else {
                throw error(places, setting, where(done) + " is a single value, so it has no '" + steps[i] + "'");
            }
        }
    }

    private static String where(List<String> done) {
        return done.isEmpty() ? "the scenario" : "'" + String.join(".", done) + "'";
    }

    private static Node parse(String value, Places places, String setting) {
        Node n;
        try {
            n = new Yaml(new LoaderOptions()).compose(new StringReader(value));
        } catch (YAMLException e) {
            throw error(places, setting, "the value is not YAML: " + e.getMessage().replace('\n', ' '));
        }
        return n != null ? n : new ScalarNode(Tag.NULL, "", null, null, DumperOptions.ScalarStyle.PLAIN);
    }

    private static int keyIndex(MappingNode m, String key) {
        List<NodeTuple> tuples = m.getValue();
        for (int i = 0; i < tuples.size(); i++) {
            if (tuples.get(i).getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) {
                return i;
            }
        }
        return -1;
    }

    private static List<String> keys(MappingNode m) {
        List<String> keys = new ArrayList<>();
        for (NodeTuple t : m.getValue()) {
            if (t.getKeyNode() instanceof ScalarNode k) {
                keys.add(k.getValue());
            }
        }
        return keys;
    }

    /** The entry whose {@code label} or {@code name} is {@code name}, or -1. */
    private static int entryNamed(SequenceNode s, String name) {
        List<Node> entries = s.getValue();
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i) instanceof MappingNode m) {
                for (NodeTuple t : m.getValue()) {
                    if (t.getKeyNode() instanceof ScalarNode k && (k.getValue().equals("label") || k.getValue().equals("name"))
                            && t.getValueNode() instanceof ScalarNode v && v.getValue().equals(name)) {
                        return i;
                    }
                }
            }
        }
        return -1;
    }

    private static String join(String[] steps, int from, int to) {
        return String.join(".", java.util.Arrays.asList(steps).subList(from, to));
    }

    private static IllegalArgumentException error(Places places, String setting, String why) {
        return new IllegalArgumentException(places.source() + ": --set " + setting + ": " + why);
    }
}
