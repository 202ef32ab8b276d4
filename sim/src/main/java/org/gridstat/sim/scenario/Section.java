package org.gridstat.sim.scenario;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.gridstat.core.model.DurationText;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * One mapping of a scenario file, read field by field: unknown and repeated keys are refused when
 * it is opened, and every value read is checked for its type and range, each error naming the
 * field's path (such as {@code subscriptions[1].rate}) and its line.
 */
final class Section {
    private static final long SECOND = 1_000_000_000L;

    private final MappingNode node;
    private final String path;
    private final Places places;
    private final Map<String, Node> values = new LinkedHashMap<>();
    private final Map<String, Node> keyNodes = new LinkedHashMap<>();

    private Section(MappingNode node, String path, Places places) {
        this.node = node;
        this.path = path;
        this.places = places;
    }

    /**
     * Opens {@code n} as a mapping at {@code path} whose keys must be among {@code known}
     * ({@code null}: any key, such as the link names under {@code links}).
     */
    static Section of(Node n, String path, Places places, List<String> known) {
        if (!(n instanceof MappingNode m)) {
            throw places.error(n, path, "expected a mapping" + (known == null ? "" : " of " + String.join(", ", known)));
        }
        Section s = new Section(m, path, places);
        for (NodeTuple t : m.getValue()) {
            if (!(t.getKeyNode() instanceof ScalarNode k)) {
                throw places.error(t.getKeyNode(), path, "a key is a single value, not a list or mapping");
            }
            String key = k.getValue();
            if (known != null && !known.contains(key)) {
                throw places.error(k, s.field(key), "unknown key (known: " + String.join(", ", known) + ")");
            }
            if (s.values.containsKey(key)) {
                throw places.error(k, s.field(key), "given twice (first on " + places.of(s.keyNodes.get(key)) + ")");
            }
            s.values.put(key, t.getValueNode());
            s.keyNodes.put(key, k);
        }
        return s;
    }

    static boolean isNull(Node n) {
        return n == null || (n instanceof ScalarNode s && s.getTag().equals(Tag.NULL));
    }

    String path() {
        return path;
    }

    Places places() {
        return places;
    }

    MappingNode node() {
        return node;
    }

    /** The keys given, in file order. */
    Collection<String> keys() {
        return values.keySet();
    }

    boolean has(String key) {
        return !isNull(values.get(key));
    }

    /** The value of {@code key}, or {@code null} if it is not given (or given empty). */
    Node value(String key) {
        Node n = values.get(key);
        return isNull(n) ? null : n;
    }

    Node keyNode(String key) {
        return keyNodes.get(key);
    }

    /** The dotted path of {@code key} here. */
    String field(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** An error about {@code key}: at its value if given, else at this mapping. */
    IllegalArgumentException error(String key, String why) {
        Node n = values.get(key);
        return places.error(n != null ? n : node, field(key), why);
    }

    /** An error about this mapping as a whole. */
    IllegalArgumentException error(String why) {
        return places.error(node, path, why);
    }

    private Node required(String key) {
        Node n = value(key);
        if (n == null) {
            throw places.error(node, field(key), "missing (required)");
        }
        return n;
    }

    private String scalar(String key, Node n) {
        if (!(n instanceof ScalarNode s)) {
            throw places.error(n, field(key), "expected a single value, not a " + (n instanceof SequenceNode ? "list" : "mapping"));
        }
        return s.getValue();
    }

    /** A required non-empty text. */
    String text(String key) {
        String t = scalar(key, required(key)).trim();
        if (t.isEmpty()) {
            throw error(key, "is empty");
        }
        return t;
    }

    String text(String key, String otherwise) {
        return has(key) ? text(key) : otherwise;
    }

    /** A required whole number in {@code min..max}. */
    long whole(String key, long min, long max) {
        String t = scalar(key, required(key)).trim();
        long v;
        try {
            v = Long.parseLong(t.replace("_", ""));
        } catch (NumberFormatException e) {
            throw error(key, "'" + t + "' is not a whole number");
        }
        if (v < min || v > max) {
            throw error(key, "must be " + range(min, max) + ", got " + v);
        }
        return v;
    }

    long whole(String key, long min, long max, long otherwise) {
        return has(key) ? whole(key, min, max) : otherwise;
    }

    private static String range(long min, long max) {
        if (max == Long.MAX_VALUE) {
            return "at least " + min;
        }
        return min + ".." + max;
    }

    /** A finite decimal number, or {@code otherwise}. */
    double decimal(String key, double otherwise) {
        if (!has(key)) {
            return otherwise;
        }
        String t = scalar(key, value(key)).trim();
        double v;
        try {
            v = Double.parseDouble(t.replace("_", ""));
        } catch (NumberFormatException e) {
            throw error(key, "'" + t + "' is not a number");
        }
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            throw error(key, "'" + t + "' is not a finite number");
        }
        return v;
    }

    /** A share written {@code 50%} or as a fraction with a point, {@code 0.5}, as a fraction in 0..1. */
    double percent(String key) {
        String t = scalar(key, required(key)).trim();
        boolean percent = t.endsWith("%");
        if (!percent && !t.contains(".")) { // is "1" 1 % or all of it? Neither is guessed
            throw error(key, "'" + t + "' is ambiguous: write a percentage such as " + t + "% or a fraction such as 0.5");
        }
        double v;
        try {
            v = Double.parseDouble((percent ? t.substring(0, t.length() - 1) : t).trim().replace("_", ""));
        } catch (NumberFormatException e) {
            throw error(key, "'" + t + "' is not a share such as 50% or 0.5");
        }
        v = percent ? v / 100 : v;
        if (!(v >= 0 && v <= 1)) {
            throw error(key, "must be 0..100 %, got " + t);
        }
        return v;
    }

    /** A probability in 0..1, or {@code otherwise}. */
    double probability(String key, double otherwise) {
        double p = decimal(key, otherwise);
        if (p < 0 || p > 1) {
            throw error(key, "must be a probability in 0..1, got " + p);
        }
        return p;
    }

    /** {@code true} or {@code false} ({@code on} or {@code off}), or {@code otherwise}. */
    boolean flag(String key, boolean otherwise) {
        if (!has(key)) {
            return otherwise;
        }
        String t = scalar(key, value(key)).trim();
        if (t.equals("true") || t.equals("on")) {
            return true;
        }
        if (t.equals("false") || t.equals("off")) {
            return false;
        }
        throw error(key, "'" + t + "' is neither true (on) nor false (off)");
    }

    /** The longest time a scenario may name: 30 days. Longer is a mistake, or a run of years. */
    static final long MAX_TIME = 30L * 24 * 3_600 * SECOND;
    /** The shortest period of anything a scenario repeats (a source, an outage): 1 µs. */
    static final long MIN_PERIOD = 1_000;

    /**
     * A required non-negative duration with a unit ({@code 10ms}, {@code 2s}); a bare {@code 0} is
     * zero; at most {@link #MAX_TIME}.
     */
    long duration(String key) {
        String t = scalar(key, required(key)).trim();
        if (t.equals("0")) {
            return 0;
        }
        long d;
        try {
            d = DurationText.nanos(t);
        } catch (IllegalArgumentException e) {
            throw error(key, e.getMessage());
        }
        if (d > MAX_TIME) {
            throw error(key, "'" + t + "' is more than a scenario may last (30 days)");
        }
        return d;
    }

    long duration(String key, long otherwise) {
        return has(key) ? duration(key) : otherwise;
    }

    /** A required duration above zero. */
    long positiveDuration(String key) {
        long d = duration(key);
        if (d <= 0) {
            throw error(key, "must be above zero");
        }
        return d;
    }

    /** A duration that may be negative ({@code -2ms}), or {@code otherwise}. */
    long signedDuration(String key, long otherwise) {
        if (!has(key)) {
            return otherwise;
        }
        String t = scalar(key, value(key)).trim();
        boolean negative = t.startsWith("-");
        String magnitude = negative ? t.substring(1) : t;
        if (magnitude.equals("0")) {
            return 0;
        }
        long d;
        try {
            d = DurationText.nanos(magnitude);
        } catch (IllegalArgumentException e) {
            throw error(key, e.getMessage().replace("non-negative ", ""));
        }
        if (d > MAX_TIME) {
            throw error(key, "'" + t + "' is more than a scenario may last (30 days)");
        }
        return negative ? -d : d;
    }

    /**
     * A period given as {@code rate} (Hz) or as {@code interval} (a duration), in nanoseconds;
     * {@code -1} if neither is given.
     */
    long period() {
        if (has("rate") && has("interval")) {
            throw error("interval", "give rate or interval, not both");
        }
        if (has("rate")) {
            double hz = decimal("rate", 0);
            if (!(hz > 0)) {
                throw error("rate", "must be above zero Hz, got " + hz);
            }
            double nanos = SECOND / hz;
            if (nanos < MIN_PERIOD || nanos > MAX_TIME) {
                throw error("rate", hz + " Hz is outside 1 a month .. a million a second");
            }
            return Math.round(nanos);
        }
        if (has("interval")) {
            long nanos = positiveDuration("interval");
            if (nanos < MIN_PERIOD) {
                throw error("interval", "must be at least 1us, got " + nanos + "ns");
            }
            return nanos;
        }
        return -1;
    }

    /** One of {@code choices} (matched without regard to case), or {@code otherwise}. */
    <E> E choice(String key, Map<String, E> choices, E otherwise) {
        if (!has(key)) {
            if (otherwise == null) {
                required(key);
            }
            return otherwise;
        }
        String t = scalar(key, value(key)).trim();
        for (Map.Entry<String, E> c : choices.entrySet()) {
            if (c.getKey().equalsIgnoreCase(t)) {
                return c.getValue();
            }
        }
        throw error(key, "'" + t + "' is not one of " + String.join(", ", choices.keySet()));
    }

    /** The list under {@code key}; empty if not given. */
    List<Node> list(String key) {
        Node n = value(key);
        if (n == null) {
            return List.of();
        }
        if (!(n instanceof SequenceNode s)) {
            throw places.error(n, field(key), "expected a list");
        }
        return s.getValue();
    }

    /** The mapping under {@code key}, or {@code null} if not given. */
    Section section(String key, List<String> known) {
        Node n = value(key);
        return n == null ? null : of(n, field(key), places, known);
    }

    /** Names for an error message: at most a dozen, in order. */
    static String known(Collection<String> names) {
        if (names.isEmpty()) {
            return "none";
        }
        List<String> l = new ArrayList<>(names);
        if (l.size() <= 12) {
            return String.join(", ", l);
        }
        return String.join(", ", l.subList(0, 12)) + String.format(Locale.ROOT, " and %d more", l.size() - 12);
    }
}
