package org.gridstat.gui.model;

import java.util.List;
import java.util.Map;
import org.gridstat.gui.feed.ConnectionState;
import org.gridstat.gui.feed.Resource;

/**
 * Everything the views show at one pulse, copied from the {@link ConsoleModel} at once: each
 * element carries when it was so, and each resource whether it could be refreshed, so a view can
 * say how old what it shows is and mark what may no longer be the broker's.
 *
 * @param version       the model's version when taken: a pulse with an unchanged version repaints nothing
 * @param takenAtMillis when it was taken
 * @param unrefreshed   the resources the feed's last attempt could not refresh, with why
 */
public record ConsoleSnapshot(long version, long takenAtMillis, ConnectionState connection,
                              Stamped<BrokerStatus> status, Stamped<NetworkTopology> topology,
                              Stamped<List<RouterSession>> routers, Stamped<List<RouterCounters>> counters,
                              Stamped<List<Variable>> variables, Stamped<List<Subscription>> subscriptions,
                              List<Stamped<Flow>> flows, Stamped<List<Alarm>> alarms, Stamped<List<Gateway>> gateways,
                              long lastGoodMillis, Map<Resource, String> unrefreshed) {
    /**
     * A flow's figures older than this (its router reports every second by default) are marked
     * stale: its router has stopped reporting, though the broker still lists the flow.
     */
    public static final long FLOW_REPORT_STALE_MILLIS = 5_000;

    public ConsoleSnapshot {
        unrefreshed = Map.copyOf(unrefreshed);
    }

    /** Without resources left unrefreshed. */
    public ConsoleSnapshot(long version, long takenAtMillis, ConnectionState connection, Stamped<BrokerStatus> status,
                           Stamped<NetworkTopology> topology, Stamped<List<RouterSession>> routers,
                           Stamped<List<RouterCounters>> counters, Stamped<List<Variable>> variables,
                           Stamped<List<Subscription>> subscriptions, List<Stamped<Flow>> flows,
                           Stamped<List<Alarm>> alarms, Stamped<List<Gateway>> gateways, long lastGoodMillis) {
        this(version, takenAtMillis, connection, status, topology, routers, counters, variables, subscriptions, flows,
                alarms, gateways, lastGoodMillis, Map.of());
    }

    /** How old the data is: since the last good round of answers ({@code Long.MAX_VALUE}: none yet). */
    public long dataAgeMillis() {
        return lastGoodMillis == 0 ? Long.MAX_VALUE : Math.max(0, takenAtMillis - lastGoodMillis);
    }

    public boolean live() {
        return connection.kind() == ConnectionState.Kind.LIVE;
    }

    /**
     * Why what is shown of {@code resource} may no longer be the broker's, or {@code null} if it is
     * current: the console is not live (then nothing is), or the feed's last attempt to refresh this
     * resource failed (the rest may be live).
     */
    public String staleness(Resource resource) {
        if (!live()) {
            String d = connection.detail();
            return "not live" + (d == null || d.isEmpty() ? "" : ": " + d);
        }
        String why = unrefreshed.get(resource);
        return why == null ? null : resource.routeName() + " not refreshed: " + why;
    }

    /** Whether a flow's figures may no longer be current: not live, or its router's last report is older than {@link #FLOW_REPORT_STALE_MILLIS}. */
    public boolean stale(Stamped<Flow> flow) {
        return !live() || flow.value().statistics() != null && takenAtMillis - flow.atMillis() > FLOW_REPORT_STALE_MILLIS;
    }

    /** The oldest of the flows' figures shown (0 if none): what "every figure at most a second old" is measured by. */
    public long oldestFlowMillis() {
        long oldest = Long.MAX_VALUE;
        for (Stamped<Flow> f : flows) {
            oldest = Math.min(oldest, f.atMillis());
        }
        return flows.isEmpty() ? 0 : oldest;
    }
}
