package org.gridstat.sim.rpc;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.IntFunction;
import org.gridstat.rpc.transport.Outlet;
import org.gridstat.rpc.transport.Timers;
import org.gridstat.rpc.transport.TwoWayEndpoint;
import org.gridstat.sim.Simulation;

/**
 * A 2WoPS connection on the simulated network: two {@link TwoWayEndpoint}s, each publishing its
 * frames as samples of its own variable and handed, at its delivery link, the samples of the
 * other's. Each side has one variable per spatial level (the number of disjoint paths its
 * subscriber was admitted with); a send over {@code paths} goes out on the variable of the highest
 * level at or below it, as the real binding does. Each side listens to all of the peer's levels.
 */
public final class SimConnection {
    /**
     * One side: where it is (its router and delivery link) and the variable it publishes for each
     * spatial level.
     *
     * @param connectionId its id on the wire (nonzero)
     */
    public record End(String router, String link, IntFunction<String> variable, long connectionId) {
        public End {
            Objects.requireNonNull(router, "router");
            Objects.requireNonNull(link, "link");
            Objects.requireNonNull(variable, "variable");
        }
    }

    private final TwoWayEndpoint client;
    private final TwoWayEndpoint server;

    private SimConnection(TwoWayEndpoint client, TwoWayEndpoint server) {
        this.client = client;
        this.server = server;
    }

    /**
     * Connects {@code client} and {@code server} in {@code sim} before it runs.
     *
     * @param levels            the spatial levels both sides publish at, ascending, starting at 1
     * @param latencyBoundNanos the subscriptions' latency bound, which times the acknowledgements
     */
    public static SimConnection open(Simulation sim, Timers timers, End client, End server, int[] levels,
                                     long latencyBoundNanos) {
        int[] sorted = levels.clone();
        Arrays.sort(sorted);
        if (sorted.length == 0 || sorted[0] != 1) {
            throw new IllegalArgumentException("a connection publishes at level 1 (one path) at least, got "
                    + Arrays.toString(levels));
        }
        TwoWayEndpoint c = new TwoWayEndpoint(client.connectionId(), latencyBoundNanos, outlet(sim, client, sorted), timers,
                null);
        TwoWayEndpoint s = new TwoWayEndpoint(server.connectionId(), latencyBoundNanos, outlet(sim, server, sorted), timers,
                null);
        for (int k : sorted) {
            sim.listen(server.variable().apply(k), client.router(), client.link(),
                    (sequence, sourceTime, bytes, offset, length) -> c.receive(bytes, offset, length));
            sim.listen(client.variable().apply(k), server.router(), server.link(),
                    (sequence, sourceTime, bytes, offset, length) -> s.receive(bytes, offset, length));
        }
        return new SimConnection(c, s);
    }

    private static Outlet outlet(Simulation sim, End end, int[] levels) {
        return (paths, frame, length) -> {
            int level = levels[0];
            for (int k : levels) {
                if (k <= paths) {
                    level = k;
                }
            }
            // the endpoint gives up the frame: copy only if it is longer than what it holds
            sim.publish(end.variable().apply(level), length == frame.length ? frame : Arrays.copyOf(frame, length));
        };
    }

    public TwoWayEndpoint client() {
        return client;
    }

    public TwoWayEndpoint server() {
        return server;
    }
}
