package org.gridstat.broker.api;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.gridstat.broker.BrokerReplica;
import org.gridstat.broker.store.ZooKeeperFixture;
import org.gridstat.broker.topology.Topology;
import org.gridstat.client.BrokerConnection;
import org.gridstat.client.events.BrokerEvents;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client's {@link BrokerEvents} against the real route of two replicas whose APIs advertise
 * their real addresses: sent by the standby to the leader, it follows the changes an operator
 * makes, reads afresh after the leader's API restarts, and follows a failover to the new leader
 * with the state intact.
 */
@Timeout(120)
class BrokerEventsRouteTest {
    private static final long MS = 1_000_000L;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final BrokerEvents.Settings QUICK = new BrokerEvents.Settings(Duration.ofMillis(50), Duration.ofMillis(10),
            Duration.ofMillis(100), 8 * 1024 * 1024, Duration.ofSeconds(2));

    @TempDir
    Path dir;
    private ZooKeeperFixture zk;
    private BrokerReplica leader;
    private BrokerReplica standby;
    private ManagementApi leaderApi;
    private ManagementApi standbyApi;
    private URI leaderUri;
    private URI standbyUri;
    private BrokerEvents events;
    private final List<String> states = new CopyOnWriteArrayList<>();
    private final List<Received> received = new CopyOnWriteArrayList<>();

    private record Received(String event, JsonNode data) {
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @BeforeEach
    void start() throws Exception {
        zk = new ZooKeeperFixture(dir);
        Topology t = Topology.builder().router("a", 100_000).router("b", 100_000).router("c", 100_000)
                .between("a", "b", 12_500_000, MS, Topology.Builder.defaultShares())
                .between("b", "c", 12_500_000, MS, Topology.Builder.defaultShares()).build();
        int leaderPort = freePort();
        int standbyPort = freePort();
        leaderUri = URI.create("http://127.0.0.1:" + leaderPort);
        standbyUri = URI.create("http://127.0.0.1:" + standbyPort);
        leader = new BrokerReplica(zk.client(), "/gridstat", new BrokerReplica.Settings("one",
                new InetSocketAddress("127.0.0.1", 0), leaderUri.toString()), t);
        leaderApi = api(leaderPort, leader);
        leader.start();
        long end = System.nanoTime() + 20_000 * MS;
        while (!leader.isLeader()) {
            assertTrue(System.nanoTime() < end, "never led");
            Thread.sleep(10);
        }
        standby = new BrokerReplica(zk.client(), "/gridstat", new BrokerReplica.Settings("two",
                new InetSocketAddress("127.0.0.1", 0), standbyUri.toString()), null);
        standbyApi = api(standbyPort, standby);
        standby.start();
    }

    private static ManagementApi api(int port, BrokerReplica r) {
        return new ManagementApi(new InetSocketAddress("127.0.0.1", port), r,
                new ApiLimits(1000, 10_000 * MS, EventStreamTest.FAST));
    }

    @AfterEach
    void stop() {
        if (events != null) {
            events.close();
        }
        leaderApi.close();
        standbyApi.close();
        standby.close();
        leader.close();
        zk.close();
    }

    private void read(URI... replicas) {
        events = BrokerEvents.open(List.of(replicas), QUICK, (name, data) -> {
            try {
                received.add(new Received(name, JSON.readTree(data)));
            } catch (Exception e) {
                received.add(new Received(name + " (not JSON: " + e.getMessage() + ")", null));
            }
        }, (state, broker, detail) -> states.add(state + " " + broker));
    }

    private static void await(BooleanSupplier done, String what) throws InterruptedException {
        long end = System.nanoTime() + 30_000 * MS;
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, what);
            Thread.sleep(5);
        }
    }

    /** The latest data received of an event: a snapshot's resource counts as that resource's latest. */
    private JsonNode latest(String resource) {
        for (int i = received.size() - 1; i >= 0; i--) {
            Received r = received.get(i);
            if (r.event().equals(resource)) {
                return r.data();
            }
            if (r.event().equals("snapshot")) {
                return r.data().get(resource);
            }
        }
        return null;
    }

    private long snapshots() {
        return received.stream().filter(r -> r.event().equals("snapshot")).count();
    }

    private void subscribe(BrokerConnection broker) {
        broker.request("POST", "/variables", "{\"name\":\"s1/pmu1/freq\",\"router\":\"a\",\"frameBytes\":260,"
                + "\"rateHz\":60,\"serviceClass\":\"HRT\"}");
        BrokerConnection.Answer a = broker.request("POST", "/subscriptions", "{\"variable\":\"s1/pmu1/freq\","
                + "\"subscriberRouter\":\"c\",\"subscriberLink\":\"cc\",\"qos\":{\"rateHz\":60,\"latencyBoundMs\":50,"
                + "\"serviceClass\":\"HRT\"}}");
        assertEquals(201, a.status(), a.body());
    }

    @Test
    void sentByTheStandbyToTheLeaderItFollowsEachAdmissionAndTeardown() throws Exception {
        read(standbyUri);
        await(() -> snapshots() == 1, "a snapshot: " + states);
        assertEquals(List.of("CONNECTING " + standbyUri, "CONNECTING " + leaderUri, "LIVE " + leaderUri), states);
        assertEquals(1, events.counters().leaderRedirects());
        assertEquals("snapshot", received.get(0).event(), "the first event");
        assertEquals(0, latest("subscriptions").size());

        BrokerConnection broker = BrokerConnection.connect(standbyUri);
        subscribe(broker);
        await(() -> latest("subscriptions").size() == 1 && latest("flows").size() == 3, "the admission: " + received);
        assertEquals(1, latest("subscriptions").get(0).get("id").asLong());
        assertEquals(204, broker.request("DELETE", "/subscriptions/1", null).status());
        await(() -> latest("subscriptions").isEmpty() && latest("flows").isEmpty(), "the teardown: " + received);
        assertEquals(1, snapshots(), "one stream throughout");
        assertEquals(BrokerEvents.State.LIVE, events.state());
    }

    @Test
    void afterTheLeadersApiRestartsItReadsAFreshSnapshot() throws Exception {
        read(leaderUri);
        await(() -> snapshots() == 1, "a snapshot: " + states);
        leaderApi.close();
        await(() -> states.contains("DISCONNECTED " + leaderUri), "the end of the stream noticed: " + states);
        leaderApi = api(leaderUri.getPort(), leader);
        await(() -> snapshots() == 2, "a second snapshot: " + states);
        assertEquals("LIVE " + leaderUri, states.get(states.size() - 1));
    }

    @Test
    void itFollowsAFailoverToTheNewLeaderWithTheStateIntact() throws Exception {
        subscribe(BrokerConnection.connect(leaderUri));
        read(leaderUri, standbyUri);
        await(() -> snapshots() == 1, "a snapshot: " + states);
        assertEquals(1, latest("subscriptions").size());

        leader.close(); // its API stays up, answering 503
        await(() -> snapshots() == 2, "a snapshot from the new leader: " + states);
        assertEquals(standbyUri, events.broker());
        assertEquals("LIVE " + standbyUri, states.get(states.size() - 1));
        JsonNode subscriptions = latest("subscriptions");
        assertEquals(1, subscriptions.size(), "the subscription survived the failover: " + subscriptions);
        assertEquals(1, leaderApi.streamCounters().closedUnanswered(), "the old leader closed its stream");
    }
}
