package org.gridstat.rpc.pubsub;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.client.ReceivedEvent;
import org.gridstat.client.StatusEventListener;
import org.gridstat.core.model.VariableId;

/**
 * Hands each event a {@link org.gridstat.client.Subscriber} delivers to the listener of its
 * variable: one subscriber socket (a delivery link) carries the frames of several 2WoPS
 * connections and the status variables their conditions read. Runs in the subscriber's thread.
 * Routes are bounded ({@link #MAX_ROUTES}); events of a variable without a route are counted and
 * dropped.
 */
public final class VariableDispatch implements StatusEventListener {
    /** Variables routed at most. */
    public static final int MAX_ROUTES = 4096;

    private final ConcurrentHashMap<Long, StatusEventListener> routes = new ConcurrentHashMap<>();
    private final AtomicLong unrouted = new AtomicLong();

    /**
     * Routes the events of {@code variable} to {@code listener}.
     *
     * @throws IllegalArgumentException if the variable is routed already
     * @throws IllegalStateException    when {@link #MAX_ROUTES} variables are routed
     */
    public synchronized void route(VariableId variable, StatusEventListener listener) {
        Objects.requireNonNull(listener, "listener");
        if (routes.containsKey(variable.value())) {
            throw new IllegalArgumentException("variable " + variable + " is routed already");
        }
        if (routes.size() >= MAX_ROUTES) {
            throw new IllegalStateException(MAX_ROUTES + " variables routed already");
        }
        routes.put(variable.value(), listener);
    }

    /** Stops routing {@code variable}; its later events count as unrouted. */
    public synchronized void remove(VariableId variable) {
        routes.remove(variable.value());
    }

    public boolean routes(VariableId variable) {
        return routes.containsKey(variable.value());
    }

    @Override
    public void onEvent(ReceivedEvent event) {
        StatusEventListener l = routes.get(event.variableId());
        if (l == null) {
            unrouted.incrementAndGet();
            return;
        }
        l.onEvent(event);
    }

    /** Events of variables without a route. */
    public long unrouted() {
        return unrouted.get();
    }
}
