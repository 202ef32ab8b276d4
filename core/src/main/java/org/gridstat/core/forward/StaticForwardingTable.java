package org.gridstat.core.forward;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.gridstat.core.model.Endpoint;
import org.gridstat.core.model.VariableId;

/**
 * An immutable forwarding table built from configuration. Lookups go through an open-addressing
 * table keyed by the primitive variable id, so they neither box nor allocate.
 */
public final class StaticForwardingTable implements ForwardingTable {
    private final long[] keys;
    private final Route[] routes;
    private final int mask;
    private final List<Endpoint> outLinks;
    private final int size;

    private StaticForwardingTable(Map<VariableId, List<Endpoint>> entries) {
        LinkedHashSet<Endpoint> links = new LinkedHashSet<>();
        entries.values().forEach(links::addAll);
        this.outLinks = Collections.unmodifiableList(new ArrayList<>(links));

        int capacity = Integer.highestOneBit(Math.max(2, entries.size() * 2 - 1)) << 1;
        this.keys = new long[capacity];
        this.routes = new Route[capacity];
        this.mask = capacity - 1;
        this.size = entries.size();
        for (Map.Entry<VariableId, List<Endpoint>> e : entries.entrySet()) {
            long id = e.getKey().value();
            int[] idx = e.getValue().stream().distinct().mapToInt(outLinks::indexOf).toArray();
            int slot = slot(id);
            while (routes[slot] != null) {
                slot = (slot + 1) & mask;
            }
            keys[slot] = id;
            routes[slot] = new Route(id, idx);
        }
    }

    /** Parses route lines of the form {@code <variable id> -> host:port[, host:port ...]}. */
    public static StaticForwardingTable parse(List<String> routeLines) {
        Builder b = builder();
        int n = 0;
        for (String line : routeLines) {
            n++;
            int arrow = line.indexOf("->");
            if (arrow < 0) {
                throw new IllegalArgumentException("route " + n + " '" + line + "': expected '<variable id> -> host:port, ...'");
            }
            try {
                VariableId id = VariableId.parse(line.substring(0, arrow));
                List<Endpoint> to = new ArrayList<>();
                for (String ep : line.substring(arrow + 2).split(",")) {
                    to.add(Endpoint.parse(ep));
                }
                b.route(id, to);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("route " + n + " '" + line + "': " + e.getMessage(), e);
            }
        }
        return b.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public Route route(long variableId) {
        int slot = slot(variableId);
        Route r;
        while ((r = routes[slot]) != null) {
            if (keys[slot] == variableId) {
                return r;
            }
            slot = (slot + 1) & mask;
        }
        return null;
    }

    @Override
    public List<Endpoint> outLinks() {
        return outLinks;
    }

    /** Number of variables routed. */
    public int size() {
        return size;
    }

    private int slot(long id) {
        long h = id * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    /** Collects routes; a variable given twice is an error, not a silent merge. */
    public static final class Builder {
        private final Map<VariableId, List<Endpoint>> entries = new LinkedHashMap<>();

        private Builder() {
        }

        public Builder route(VariableId variable, List<Endpoint> to) {
            if (to.isEmpty()) {
                throw new IllegalArgumentException("variable " + variable + " has no destination");
            }
            if (entries.putIfAbsent(variable, List.copyOf(to)) != null) {
                throw new IllegalArgumentException("variable " + variable + " is routed twice");
            }
            return this;
        }

        public StaticForwardingTable build() {
            return new StaticForwardingTable(entries);
        }
    }
}
