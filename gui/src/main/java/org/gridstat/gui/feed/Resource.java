package org.gridstat.gui.feed;

/**
 * The management API's resources the console shows. Each name is both the GET route's
 * ({@code /api/v1/<name>}) and, for those the event stream carries, the name of its event holding
 * the same body.
 */
public enum Resource {
    STATUS("status", false), TOPOLOGY("topology", false), ROUTERS("routers", true), COUNTERS("counters", false),
    VARIABLES("variables", false), SUBSCRIPTIONS("subscriptions", true), FLOWS("flows", true), ALARMS("alarms", true),
    DEVICES("devices", true);

    private final String routeName;
    private final boolean streamed;

    Resource(String routeName, boolean streamed) {
        this.routeName = routeName;
        this.streamed = streamed;
    }

    /**
     * Whether {@code GET /api/v1/events} carries it (in its {@code snapshot} and as an event of its
     * name); the others change seldom or are the routers' own periodic reports, and are read by GET.
     */
    public boolean streamed() {
        return streamed;
    }

    /** The route's path under {@code /api/v1}. */
    public String path() {
        return "/" + routeName;
    }

    /** The name of the route and of the push channel's event carrying its body. */
    public String routeName() {
        return routeName;
    }

    /** The resource of a route or event name, or {@code null} for one the console does not show. */
    public static Resource named(String name) {
        for (Resource r : values()) {
            if (r.routeName.equals(name)) {
                return r;
            }
        }
        return null;
    }
}
