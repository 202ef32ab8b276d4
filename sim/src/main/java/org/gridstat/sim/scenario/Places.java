package org.gridstat.sim.scenario;

import java.util.IdentityHashMap;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Where each node of a scenario's YAML tree came from, for error messages: a line of the file, or
 * a {@code --set} override (which has no line in the file).
 */
final class Places {
    private final String source;
    private final Map<Node, String> overrides = new IdentityHashMap<>();

    Places(String source) {
        this.source = source;
    }

    String source() {
        return source;
    }

    /** The node's place: {@code file line 12}, or {@code file: --set key=value}. */
    String of(Node n) {
        String setting = n == null ? null : overrides.get(n);
        if (setting != null) {
            return source + ": --set " + setting;
        }
        if (n == null || n.getStartMark() == null) {
            return source;
        }
        return source + " line " + (n.getStartMark().getLine() + 1);
    }

    /** Marks {@code n} and everything under it as given by the override {@code setting}. */
    void override(Node n, String setting) {
        overrides.put(n, setting);
        if (n instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                override(t.getKeyNode(), setting);
                override(t.getValueNode(), setting);
            }
        } else if (n instanceof SequenceNode s) {
            s.getValue().forEach(e -> override(e, setting));
        }
    }

    /** An error at {@code n} about {@code field} (a dotted path such as {@code subscriptions[1].rate}). */
    IllegalArgumentException error(Node n, String field, String why) {
        return new IllegalArgumentException(of(n) + ": " + (field.isEmpty() ? "" : field + ": ") + why);
    }
}
