package org.gridstat.rpc;

import java.util.ArrayList;
import java.util.List;
import org.gridstat.rpc.client.Call;
import org.gridstat.rpc.client.CallPolicy;
import org.gridstat.rpc.client.RpcClient;
import org.gridstat.rpc.condition.LatestValues;
import org.gridstat.rpc.server.Authorisation;
import org.gridstat.rpc.server.RequestLog;
import org.gridstat.rpc.server.RpcServer;
import org.gridstat.rpc.server.ServerSettings;
import org.gridstat.rpc.transport.Redundancy;
import org.gridstat.rpc.transport.TwoWayEndpoint;

/** A client and a server over a {@link TestNetwork}, with a breaker whose operations are counted. */
public final class RpcFixture {
    public static final long MS = 1_000_000;
    public static final long BOUND = 10 * MS;
    public static final long DELAY = 6 * MS;

    public final ManualTimers timers = new ManualTimers();
    public final TestNetwork net = new TestNetwork(timers, DELAY);
    public final LatestValues status = new LatestValues(64, timers::epochNanos);
    public final List<List<Object>> opened = new ArrayList<>();
    public TwoWayEndpoint clientEnd;
    public TwoWayEndpoint serverEnd;
    public RpcServer server;
    public RpcClient client;

    public RpcFixture(Authorisation auth, RequestLog log, ServerSettings settings) {
        clientEnd = new TwoWayEndpoint(0xC1, BOUND, net.fromClient(), timers, null);
        serverEnd = new TwoWayEndpoint(0x51, BOUND, net.fromServer(), timers, null);
        net.connect(clientEnd, serverEnd);
        server = new RpcServer(timers, status, auth, log, settings);
        serverEnd.inbox(server.inboxFor(serverEnd));
        client = new RpcClient(clientEnd, timers, 77, "operator1");
    }

    /** A server restarted on the same log: a new server object on the same endpoint. */
    public RpcServer restartServer(Authorisation auth, RequestLog log, ServerSettings settings) throws Exception {
        server = new RpcServer(timers, status, auth, log, settings);
        server.restore();
        serverEnd.inbox(server.inboxFor(serverEnd));
        return server;
    }

    public static CallPolicy policy(int copies, int retries) {
        return CallPolicy.of(new Redundancy(1, copies, copies > 1 ? 2 * MS : 0, retries), 200 * MS);
    }

    public Call call(String op, List<Object> args, CallPolicy p) {
        return client.call(op, args, p);
    }
}
