package org.gridstat.gui.model;

import java.util.List;
import org.gridstat.gui.feed.ConnectionState;

/**
 * Everything the views show at one pulse, copied from the {@link ConsoleModel} at once: each
 * element carries when it was received, so a view can say how old what it shows is.
 *
 * @param version       the model's version when taken: a pulse with an unchanged version repaints nothing
 * @param takenAtMillis when it was taken
 */
public record ConsoleSnapshot(long version, long takenAtMillis, ConnectionState connection,
                              Stamped<BrokerStatus> status, Stamped<NetworkTopology> topology,
                              Stamped<List<RouterSession>> routers, Stamped<List<RouterCounters>> counters,
                              Stamped<List<Variable>> variables, Stamped<List<Subscription>> subscriptions,
                              List<Stamped<Flow>> flows, Stamped<List<Alarm>> alarms, Stamped<List<Gateway>> gateways,
                              long lastGoodMillis) {

    /** How old the data is: since the last good round of answers ({@code Long.MAX_VALUE}: none yet). */
    public long dataAgeMillis() {
        return lastGoodMillis == 0 ? Long.MAX_VALUE : Math.max(0, takenAtMillis - lastGoodMillis);
    }

    /** The oldest receipt among the flows shown (0 if none): what "every figure at most a second old" is measured by. */
    public long oldestFlowMillis() {
        long oldest = Long.MAX_VALUE;
        for (Stamped<Flow> f : flows) {
            oldest = Math.min(oldest, f.receivedAtMillis());
        }
        return flows.isEmpty() ? 0 : oldest;
    }
}
