package org.gridstat.gui.feed;

/**
 * The management API's resources the console shows. Each name is both the GET route's
 * ({@code /api/v1/<name>}) and the event's a push channel would carry the same body under.
 */
public enum Resource {
    STATUS("status"), TOPOLOGY("topology"), ROUTERS("routers"), COUNTERS("counters"), VARIABLES("variables"),
    SUBSCRIPTIONS("subscriptions"), FLOWS("flows"), ALARMS("alarms"), DEVICES("devices");

    private final String routeName;

    Resource(String routeName) {
        this.routeName = routeName;
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
