package org.gridstat.broker.api;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The resources an API serves under {@code /api/v1} and the methods each takes (what its OpenAPI
 * file must describe); resolves a request to its resource, or to the answer that refuses it.
 */
final class ResourceTable {
    static final String PREFIX = "/api/v1";
    private static final Pattern WITH_ID = Pattern.compile("(.*)/([0-9]{1,18})");
    private static final Pattern NAME_SEGMENT = Pattern.compile("\\{(?!id\\})[a-z]+\\}");

    /**
     * A request's resource (with {@code {id}} for a numeric id segment, or another {@code {word}}
     * for a name segment), its id and name (as sent: the route validates it), or why it is refused.
     */
    record Match(String resource, long id, String name, ApiResponse refusal) {
        /** {@code "METHOD /resource"}, for a switch over the routes. */
        String route(String method) {
            return method + " " + resource;
        }
    }

    private final Map<String, Set<String>> resources;
    /** The resources with a name segment, as patterns that capture it. */
    private final Map<String, Pattern> named = new java.util.HashMap<>();

    ResourceTable(Map<String, Set<String>> resources) {
        this.resources = Map.copyOf(resources);
        for (String r : resources.keySet()) {
            Matcher m = NAME_SEGMENT.matcher(r);
            if (m.find()) {
                named.put(r, Pattern.compile(Pattern.quote(r.substring(0, m.start())) + "([^/]+)"
                        + Pattern.quote(r.substring(m.end()))));
            }
        }
    }

    Map<String, Set<String>> resources() {
        return resources;
    }

    Match match(String method, String path) {
        if (!path.startsWith(PREFIX + "/")) {
            if (path.matches("/api/v[0-9]+(/.*)?")) {
                return refused(404, "API version " + path.split("/")[2] + " is not served; this broker serves v1");
            }
            return refused(404, "no resource " + path + "; the API lives under " + PREFIX);
        }
        String resource = path.substring(PREFIX.length());
        long id = 0;
        String name = null;
        Matcher m = WITH_ID.matcher(resource);
        if (!resources.containsKey(resource) && m.matches() && resources.containsKey(m.group(1) + "/{id}")) {
            resource = m.group(1) + "/{id}";
            id = Long.parseLong(m.group(2));
        }
        if (!resources.containsKey(resource)) {
            for (Map.Entry<String, Pattern> e : named.entrySet()) {
                Matcher n = e.getValue().matcher(resource);
                if (n.matches()) {
                    resource = e.getKey();
                    name = n.group(1);
                    break;
                }
            }
        }
        Set<String> allowed = resources.get(resource);
        if (allowed == null) {
            return refused(404, "no resource " + path);
        }
        if (!allowed.contains(method)) {
            return refused(405, "method " + method + " is not allowed on " + path + "; allowed: "
                    + String.join(", ", new TreeSet<>(allowed)));
        }
        return new Match(resource, id, name, null);
    }

    private static Match refused(int status, String why) {
        return new Match(null, 0, null, ApiResponse.error(status, why));
    }
}
