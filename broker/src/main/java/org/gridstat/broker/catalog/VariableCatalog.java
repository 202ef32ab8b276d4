package org.gridstat.broker.catalog;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.model.VariableName;

/**
 * The variables declared to a broker, by name and by id. A variable's id is derived from its name
 * ({@link VariableId#ofName}), so brokers of different clouds agree on it. Not thread-safe; the
 * broker serialises access.
 */
public final class VariableCatalog {
    private final Topology topology;
    private final Map<String, PublishedVariable> byName = new TreeMap<>();
    private final Map<Long, PublishedVariable> byId = new TreeMap<>();

    public VariableCatalog(Topology topology) {
        this.topology = topology;
    }

    /**
     * What declaring would give: a new variable with the next id, or the existing one if the
     * declaration is the same; nothing is recorded until {@link #put}.
     *
     * @throws IllegalArgumentException if the router is unknown, a field is out of range, or the
     *                                  name is declared already with other attributes
     */
    public PublishedVariable resolve(String name, String router, int frameBytes, long intervalNanos,
                                     ServiceClass serviceClass, String correlationGroup) {
        if (topology.router(router) == null) {
            throw new IllegalArgumentException("no router '" + router + "' in the topology");
        }
        long id = VariableId.ofName(VariableName.of(name)).value();
        PublishedVariable v = new PublishedVariable(name, id, router, frameBytes, intervalNanos, serviceClass,
                correlationGroup == null ? "" : correlationGroup);
        PublishedVariable existing = byName.get(name);
        if (existing != null) {
            if (existing.sameAs(v)) {
                return existing;
            }
            throw new IllegalArgumentException("variable '" + name + "' is declared already, differently: " + existing);
        }
        PublishedVariable clash = byId.get(id);
        if (clash != null) {
            throw new IllegalArgumentException("variable '" + name + "' maps to the id of '" + clash.name()
                    + "'; rename one of them");
        }
        return v;
    }

    /** Records a variable (a new declaration, or one loaded from the store). */
    public void put(PublishedVariable v) {
        byName.put(v.name(), v);
        byId.put(v.id(), v);
    }

    public PublishedVariable byName(String name) {
        return byName.get(name);
    }

    public PublishedVariable byId(long id) {
        return byId.get(id);
    }

    public Collection<PublishedVariable> all() {
        return List.copyOf(new ArrayList<>(byName.values()));
    }
}
