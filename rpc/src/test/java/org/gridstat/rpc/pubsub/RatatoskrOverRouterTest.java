package org.gridstat.rpc.pubsub;

import static org.junit.jupiter.api.Assertions.*;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.model.VariableName;
import org.gridstat.core.time.SystemClock;
import org.gridstat.rpc.call.ParamType;
import org.gridstat.rpc.client.CallOutcome;
import org.gridstat.rpc.client.CallPolicy;
import org.gridstat.rpc.client.CallResult;
import org.gridstat.rpc.client.PostOutcome;
import org.gridstat.rpc.condition.Condition;
import org.gridstat.rpc.server.Operation;
import org.gridstat.rpc.server.PermissionTable;
import org.gridstat.rpc.transport.FrameReject;
import org.gridstat.rpc.transport.Redundancy;
import org.gridstat.statusrouter.api.EmbeddedRouter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Ratatoskr over one real status router on loopback: the router's links {@code server} and
 * {@code server2} both lead to the server's socket, {@code client} and {@code client2} to the
 * client's, so a variable routed over both stands for a subscription over two disjoint paths (its
 * events arrive twice). Level 1 of the service goes over one link, level 2 over both; the breaker's
 * state, published by the plant at the router, goes to the server.
 */
class RatatoskrOverRouterTest {
    private static final String SERVICE = "sub1/breakers";
    private static final String STATE = "sub1/breaker52/state";
    private static final Duration BOUND = Duration.ofMillis(50);
    private static final long MS = 1_000_000L;
    /** Generous: a loaded machine answers late, never wrongly. */
    private static final long DEADLINE = 5_000 * MS;

    private final List<AutoCloseable> open = new ArrayList<>();
    private RatatoskrServer server;
    private RatatoskrClient client;
    private Publication plantState;
    private final List<List<Object>> opened = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        int routerPort;
        try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            routerPort = probe.getLocalPort();
        }
        InetSocketAddress router = new InetSocketAddress("127.0.0.1", routerPort);
        server = RatatoskrServer.start(TwoWayPlan.server(SERVICE, BOUND, Duration.ofMillis(1), 1, 2), router,
                new InetSocketAddress("127.0.0.1", 0), PermissionTable.parse(List.of("operator1: breaker.open, bump")), null);
        open.add(server);
        client = RatatoskrClient.connect(TwoWayPlan.caller(SERVICE, BOUND, Duration.ofMillis(1), 1, 2), router,
                new InetSocketAddress("127.0.0.1", 0), "operator1");
        open.add(client);
        int s = server.listenAddress().getPort();
        int c = client.listenAddress().getPort();
        open.add(EmbeddedRouter.start(Map.of("node.id", "rpc1", "data.bind", "127.0.0.1:" + routerPort,
                "warm.up.frames", 0,
                "links", new String[] {"name=server address=127.0.0.1:" + s, "name=server2 address=127.0.0.1:" + s,
                        "name=client address=127.0.0.1:" + c, "name=client2 address=127.0.0.1:" + c},
                "flows", new String[] {
                        flow(1, TwoWayPlan.requestVariable(SERVICE, 1), "server"),
                        flow(2, TwoWayPlan.requestVariable(SERVICE, 2), "server"),
                        flow(3, TwoWayPlan.requestVariable(SERVICE, 2), "server2"),
                        flow(4, TwoWayPlan.replyVariable(SERVICE, 1), "client"),
                        flow(5, TwoWayPlan.replyVariable(SERVICE, 2), "client"),
                        flow(6, TwoWayPlan.replyVariable(SERVICE, 2), "client2"),
                        flow(7, STATE, "server")})));
        Publisher plant = Publisher.connect(router);
        open.add(plant);
        plantState = plant.publication(id(STATE), ServiceClass.HRT, BOUND);
        server.export(new Operation("breaker.open", List.of(ParamType.INTEGER), args -> {
            opened.add(args);
            plantState.publish(0.0, SystemClock.INSTANCE.nanos()); // the breaker opens: the plant reports it
            return "opened " + args.get(0);
        }, Condition.parse(STATE + " == 1 && fresh(" + STATE + ", 5s)"), Condition.parse(STATE + " == 0"), 200 * MS));
        server.export(Operation.of("bump", List.of(), args -> 1L));
    }

    private static String flow(int id, String variable, String link) {
        return "id=" + id + " variable=" + id(variable).value() + " link=" + link + " class=HRT assured=100000";
    }

    private static VariableId id(String name) {
        return VariableId.ofName(VariableName.of(name));
    }

    @AfterEach
    void stop() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    @Test
    void aCallIsAnsweredOnlyWhenItsPreconditionOverALiveStatusVariableHolds() throws Exception {
        CallResult before = client.call("breaker.open", List.of(52L), policy(new Redundancy(1, 1, 0, 3)))
                .result().get(10, TimeUnit.SECONDS);
        assertEquals(CallOutcome.PRECONDITION_FAILED, before.outcome(), before.detail());
        assertTrue(before.detail().contains(STATE), before.detail());
        assertTrue(opened.isEmpty(), "no state known: the actuator did not run");

        plantState.publish(1.0, SystemClock.INSTANCE.nanos()); // closed, through the router
        waitUntil(() -> server.status().value(STATE) == 1.0, "the state reaches the server");
        RemoteCall call = client.call("breaker.open", List.of(52L), policy(new Redundancy(1, 1, 0, 3)));
        CallResult r = call.result().get(10, TimeUnit.SECONDS);
        assertEquals(CallOutcome.SUCCESS, r.outcome(), r.detail());
        assertEquals("opened 52", r.value());
        assertEquals(List.of(List.of(52L)), opened);
        assertEquals(PostOutcome.HOLDS, call.postcondition().get(10, TimeUnit.SECONDS).outcome(),
                "the plant's report of the open breaker reached the post-condition");

        CallResult again = client.call("breaker.open", List.of(52L), policy(new Redundancy(1, 1, 0, 3)))
                .result().get(10, TimeUnit.SECONDS);
        assertEquals(CallOutcome.PRECONDITION_FAILED, again.outcome(), "open already: refused by the live state");
        assertEquals(1, (long) server.read(s -> s.executions("breaker.open")));
        assertEquals(0, server.unrouted());
    }

    @Test
    void copiesOverTwoPathsAndInTimeAreDeliveredOnceAndRunTheActuatorOnce() throws Exception {
        // warm up the path, so the counts below are the call's alone
        assertEquals(CallOutcome.SUCCESS, client.call("bump", List.of(), policy(Redundancy.NONE.withRetries(3)))
                .result().get(10, TimeUnit.SECONDS).outcome());
        Thread.sleep(100);
        Counts c0 = counts();
        // 2 paths, 3 copies 2 ms apart: the reply comes back as 3 copies over both links
        CallResult r = client.call("bump", List.of(), policy(new Redundancy(2, 3, 2 * MS, 3)))
                .result().get(10, TimeUnit.SECONDS);
        assertEquals(CallOutcome.SUCCESS, r.outcome(), r.detail());
        assertEquals(1L, r.value());
        Thread.sleep(200); // the last copies arrive
        Counts c1 = counts();
        long requestCopies = c1.clientPublished - c0.clientPublished; // copies not sent once the reply came
        assertTrue(requestCopies >= 1 && requestCopies <= 3, "request copies sent: " + requestCopies);
        assertEquals(1, c1.executions - c0.executions, "the actuator ran once");
        assertEquals(requestCopies, c1.serverSocketDuplicates - c0.serverSocketDuplicates,
                "each request copy came over both links; the second of each discarded by the subscriber");
        assertEquals(requestCopies - 1, c1.serverDuplicates - c0.serverDuplicates,
                "the temporal copies after the first dropped by the endpoint");
        assertEquals(3, c1.clientSocketDuplicates - c0.clientSocketDuplicates, "3 reply copies, each over both links");
        assertEquals(2, c1.clientDuplicates - c0.clientDuplicates, "the reply handed to the client once");
        assertEquals(0, client.connection().substituted(), "level 2 is offered: no send fell back to level 1");
    }

    private record Counts(long clientPublished, long executions, long serverSocketDuplicates, long serverDuplicates,
                          long clientSocketDuplicates, long clientDuplicates) {
    }

    private Counts counts() throws Exception {
        long serverDup = server.agent().submit(() -> server.connection().endpoint().rejected(FrameReject.DUPLICATE))
                .get(10, TimeUnit.SECONDS);
        long clientDup = client.agent().submit(() -> client.connection().endpoint().rejected(FrameReject.DUPLICATE))
                .get(10, TimeUnit.SECONDS);
        return new Counts(client.connection().framesPublished(), server.read(s -> s.executions("bump")),
                server.delivery().duplicatesDiscarded(), serverDup, client.delivery().duplicatesDiscarded(), clientDup);
    }

    private static CallPolicy policy(Redundancy r) {
        return CallPolicy.of(r, DEADLINE);
    }

    private static void waitUntil(BooleanSupplier done, String what) throws InterruptedException {
        long end = System.nanoTime() + 10_000 * MS;
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, "timed out waiting until " + what);
            Thread.sleep(5);
        }
    }
}
