package org.gridstat.broker.api;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** Each OpenAPI file describes exactly the resources and methods its routes serve. */
class ApiDescriptionTest {
    @SuppressWarnings("unchecked")
    private static Map<String, Set<String>> described(String file) {
        Map<String, Object> doc = new Yaml().load(OpenApi.text(file));
        Map<String, Set<String>> out = new TreeMap<>();
        ((Map<String, Map<String, Object>>) doc.get("paths")).forEach((path, ops) -> {
            Set<String> methods = new TreeSet<>();
            ops.keySet().stream().filter(k -> !k.equals("parameters")).forEach(k -> methods.add(k.toUpperCase()));
            out.put(path, methods);
        });
        return out;
    }

    private static Map<String, Set<String>> sorted(Map<String, Set<String>> m) {
        Map<String, Set<String>> out = new TreeMap<>();
        m.forEach((k, v) -> out.put(k, new TreeSet<>(v)));
        return out;
    }

    @Test
    void theLeafDescriptionMatchesItsRoutes() {
        assertEquals(sorted(ManagementRoutes.RESOURCES), described("openapi.yaml"));
    }

    @Test
    void theParentDescriptionMatchesItsRoutes() {
        assertEquals(sorted(ParentRoutes.RESOURCES), described("parent-openapi.yaml"));
    }
}
