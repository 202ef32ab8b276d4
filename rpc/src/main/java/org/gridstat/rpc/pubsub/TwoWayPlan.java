package org.gridstat.rpc.pubsub;

import java.time.Duration;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.model.VariableName;
import org.gridstat.rpc.transport.Redundancy;

/**
 * The status variables of one side of a 2WoPS connection: per spatial level {@code k} (the
 * number of disjoint paths its subscription was admitted with), the variable it publishes and the
 * peer's variable it receives; their class, the latency bound their subscriptions were admitted
 * with and the interval they were declared at.
 *
 * <p>A Ratatoskr service {@code S} uses {@code S/request/kK} (published by the caller at its router,
 * subscribed by the server over {@code K} paths) and {@code S/reply/kK} (the other way) for each
 * level {@code K} it offers: {@link #caller} and {@link #server} name them so. Declaring and
 * subscribing them is the broker's business, as for any variable; ids come from the names.
 */
public record TwoWayPlan(SortedMap<Integer, VariableId> sends, SortedMap<Integer, VariableId> receives,
                         ServiceClass serviceClass, Duration latencyBound, Duration interval) {
    public TwoWayPlan {
        if (sends.isEmpty() || receives.isEmpty()) {
            throw new IllegalArgumentException("a 2WoPS connection sends and receives on at least one spatial level");
        }
        sends.keySet().forEach(TwoWayPlan::checkLevel);
        receives.keySet().forEach(TwoWayPlan::checkLevel);
        sends = Collections.unmodifiableSortedMap(new TreeMap<>(sends));
        receives = Collections.unmodifiableSortedMap(new TreeMap<>(receives));
        Objects.requireNonNull(serviceClass, "service class");
        if (!serviceClass.isSubscribable()) {
            throw new IllegalArgumentException("service class CONTROL is reserved for the middleware");
        }
        if (latencyBound == null || latencyBound.isNegative() || latencyBound.isZero()) {
            throw new IllegalArgumentException("a 2WoPS connection needs a positive latency bound, got " + latencyBound);
        }
        if (interval == null || interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("a 2WoPS connection needs a positive declared interval, got " + interval);
        }
    }

    /** The variable a service's caller publishes at level {@code k}. */
    public static String requestVariable(String service, int k) {
        return service + "/request/k" + checkLevel(k);
    }

    /** The variable a service's server publishes at level {@code k}. */
    public static String replyVariable(String service, int k) {
        return service + "/reply/k" + checkLevel(k);
    }

    /** The caller's side of {@code service}: sends requests, receives replies, HRT. */
    public static TwoWayPlan caller(String service, Duration latencyBound, Duration interval, int... levels) {
        return of(service, true, latencyBound, interval, levels);
    }

    /** The server's side of {@code service}: sends replies, receives requests, HRT. */
    public static TwoWayPlan server(String service, Duration latencyBound, Duration interval, int... levels) {
        return of(service, false, latencyBound, interval, levels);
    }

    private static TwoWayPlan of(String service, boolean caller, Duration latencyBound, Duration interval, int[] levels) {
        if (levels.length == 0) {
            throw new IllegalArgumentException("name at least one spatial level, e.g. 1");
        }
        SortedMap<Integer, VariableId> requests = new TreeMap<>();
        SortedMap<Integer, VariableId> replies = new TreeMap<>();
        for (int k : levels) {
            requests.put(k, id(requestVariable(service, k)));
            replies.put(k, id(replyVariable(service, k)));
        }
        return caller ? new TwoWayPlan(requests, replies, ServiceClass.HRT, latencyBound, interval)
                : new TwoWayPlan(replies, requests, ServiceClass.HRT, latencyBound, interval);
    }

    private static VariableId id(String name) {
        return VariableId.ofName(VariableName.of(name));
    }

    /** The peer's plan: what this side sends it receives, and the other way. */
    public TwoWayPlan reversed() {
        return new TwoWayPlan(receives, sends, serviceClass, latencyBound, interval);
    }

    static int checkLevel(int k) {
        if (k < 1 || k > Redundancy.MAX_PATHS) {
            throw new IllegalArgumentException("a spatial level is 1.." + Redundancy.MAX_PATHS + " paths, got " + k);
        }
        return k;
    }
}
