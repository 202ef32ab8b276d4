package org.gridstat.core.model;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * One configuration line of {@code key=value} words, such as
 * {@code name=r2 address=127.0.0.1:9480 capacity=12500000}. Unknown keys, repeated keys and bad
 * values are errors that quote the line. Routers read their links and flows, gateways their devices
 * and streams, from such lines.
 */
public final class ConfigLine {
    private final String text;
    private final Map<String, String> values = new LinkedHashMap<>();

    public ConfigLine(String text, Set<String> allowed) {
        this.text = text;
        for (String word : text.trim().split("\\s+")) {
            if (word.isEmpty()) {
                continue;
            }
            int eq = word.indexOf('=');
            if (eq <= 0 || eq == word.length() - 1) {
                throw error("'" + word + "' is not key=value");
            }
            String key = word.substring(0, eq);
            if (!allowed.contains(key)) {
                throw error("unknown key '" + key + "' (known: " + String.join(", ", allowed) + ")");
            }
            if (values.put(key, word.substring(eq + 1)) != null) {
                throw error("key '" + key + "' given twice");
            }
        }
    }

    public IllegalArgumentException error(String why) {
        return new IllegalArgumentException("'" + text + "': " + why);
    }

    public boolean has(String key) {
        return values.containsKey(key);
    }

    public String text(String key) {
        String v = values.get(key);
        if (v == null) {
            throw error("missing '" + key + "'");
        }
        return v;
    }

    public String text(String key, String otherwise) {
        return values.getOrDefault(key, otherwise);
    }

    public long number(String key, long otherwise) {
        String v = values.get(key);
        if (v == null) {
            return otherwise;
        }
        try {
            return Long.parseLong(v.replace("_", ""));
        } catch (NumberFormatException e) {
            throw error(key + " '" + v + "' is not a whole number");
        }
    }

    public double decimal(String key, double otherwise) {
        String v = values.get(key);
        if (v == null) {
            return otherwise;
        }
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw error(key + " '" + v + "' is not a number");
        }
    }

    /** A duration such as 10ms, 250us, 2s or 500ns. */
    public long nanos(String key, long otherwise) {
        String v = values.get(key);
        if (v == null) {
            return otherwise;
        }
        try {
            return DurationText.nanos(v);
        } catch (IllegalArgumentException e) {
            throw error(key + ": " + e.getMessage());
        }
    }
}
