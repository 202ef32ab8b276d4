package org.gridstat.sim.rpc;

import static org.gridstat.sim.reproduce.RatatoskrNetwork.MS;
import static org.gridstat.sim.reproduce.RatatoskrNetwork.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.gridstat.rpc.call.ParamType;
import org.gridstat.rpc.client.Call;
import org.gridstat.rpc.client.CallOutcome;
import org.gridstat.rpc.client.CallPolicy;
import org.gridstat.rpc.client.CallResult;
import org.gridstat.rpc.client.RpcClient;
import org.gridstat.rpc.condition.LatestValues;
import org.gridstat.rpc.server.Operation;
import org.gridstat.rpc.server.PermissionTable;
import org.gridstat.rpc.server.RpcServer;
import org.gridstat.rpc.transport.FrameReject;
import org.gridstat.rpc.transport.Redundancy;
import org.gridstat.rpc.transport.Timers;
import org.gridstat.sim.Simulation;
import org.gridstat.sim.reproduce.RatatoskrNetwork;
import org.junit.jupiter.api.Test;

/** Ratatoskr calls over the simulated routers, on simulated time. */
class SimConnectionTest {
    private final Simulation sim = Simulation.prepare(RatatoskrNetwork.scenario(0, 0, 0, 10 * S, 1));
    private final SimTimers timers = new SimTimers(sim.loop());
    private final SimConnection connection = SimConnection.open(sim, timers,
            new SimConnection.End("cc", "client", RatatoskrNetwork::requestVariable, 0xC1),
            new SimConnection.End("sub", "server", RatatoskrNetwork::replyVariable, 0x51),
            RatatoskrNetwork.PATH_LEVELS, RatatoskrNetwork.LATENCY_BOUND);
    private final List<Long> opened = new ArrayList<>();
    private final RpcClient client;

    SimConnectionTest() {
        RpcServer server = new RpcServer(timers, new LatestValues(4, timers::epochNanos),
                PermissionTable.parse(List.of("operator: *")), null, null);
        server.export(Operation.of("breaker.open", List.of(ParamType.INTEGER), args -> opened.add((Long) args.get(0))));
        connection.server().inbox(server.inboxFor(connection.server()));
        client = new RpcClient(connection.client(), timers, 1, "operator");
    }

    private Call callAt(long at, Redundancy r, long argument) {
        Call[] c = new Call[1];
        sim.loop().at(at, () -> c[0] = client.call("breaker.open", List.of(argument), new CallPolicy(r, S, MS)));
        sim.loop().at(at + S, sim::stop);
        sim.execute();
        return c[0];
    }

    @Test
    void aCallIsAnsweredAfterOneRoundTripOverPathAAndRunsOnce() {
        CallResult r = callAt(100 * MS, new Redundancy(1, 1, 0, 3), 52).result().join();
        assertEquals(CallOutcome.SUCCESS, r.outcome());
        assertTrue(r.early());
        assertTrue(r.elapsedNanos() > 12 * MS && r.elapsedNanos() < 13 * MS, "6 links of 1 ms each way: " + r);
        assertEquals(List.of(52L), opened);
    }

    @Test
    void copiesOverBothPathsAndInTimeAreHandedOverOnce() {
        CallResult r = callAt(100 * MS, new Redundancy(2, 4, 2 * MS, 3), 7).result().join();
        assertEquals(CallOutcome.SUCCESS, r.outcome());
        assertTrue(r.elapsedNanos() < 13 * MS, "the first copy over path A answers: " + r);
        assertEquals(List.of(7L), opened);
        // each of the 4 copies reaches the endpoint once (the listener drops the other path's): the
        // first is handed to the server, the other 3 are the try's excess
        assertEquals(3, connection.server().rejected(FrameReject.DUPLICATE));
    }

    @Test
    void aSendOverMorePathsThanPublishedGoesOutOnTheMostThereAre() {
        CallResult r = callAt(100 * MS, new Redundancy(3, 1, 0, 0), 3).result().join();
        assertEquals(CallOutcome.SUCCESS, r.outcome(), "published on the two-path variable");
        assertEquals(List.of(3L), opened);
    }

    @Test
    void timersRunOnSimulatedTimeAndCanBeCalledOff() {
        List<Long> ran = new ArrayList<>();
        sim.loop().at(S, () -> {
            assertEquals(Simulation.EPOCH_BASE + S, timers.epochNanos());
            timers.after(5 * MS, () -> ran.add(timers.nowNanos()));
            Timers.Cancellable c = timers.after(6 * MS, () -> ran.add(-1L));
            timers.after(1 * MS, c::cancel);
        });
        sim.loop().at(2 * S, sim::stop);
        sim.execute();
        assertEquals(List.of(S + 5 * MS), ran);
        assertFalse(ran.contains(-1L));
    }
}
