package org.gridstat.statusrouter.api;

import java.util.Map;
import org.gridstat.statusrouter.internal.StatusRouterComponent;

/** Checks a status router's configuration before anything runs it. */
public final class RouterConfiguration {
    /** The Config Admin PID of the status router. */
    public static final String PID = StatusRouterComponent.PID;

    private RouterConfiguration() {
    }

    /**
     * Checks Config Admin properties of {@link #PID} (the keys listed in the README) exactly as the
     * router takes them, without binding or starting anything.
     *
     * @throws IllegalArgumentException naming every bad key
     */
    public static void check(Map<String, ?> properties) {
        StatusRouterComponent.check(properties);
    }
}
