package org.gridstat.gui;

import static org.junit.jupiter.api.Assertions.*;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.gridstat.client.events.BrokerEvents;
import org.gridstat.gui.feed.ConnectionState;
import org.gridstat.gui.feed.EventStreamFeed;
import org.gridstat.gui.feed.FeedSink;
import org.gridstat.gui.feed.Resource;
import org.gridstat.gui.model.NetworkTopology;
import org.gridstat.gui.model.Subscription;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * The event-stream feed against a real broker and routers ({@link LiveNetwork}): it goes live with
 * every resource, shows an admission within a couple of the broker's pulses, and across a broker
 * restart turns stale (keeping its data) and live again.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class EventStreamFeedTest {
    private static LiveNetwork network;
    private final List<ConnectionState> states = new CopyOnWriteArrayList<>();
    private final Map<Resource, Object> received = new ConcurrentHashMap<>();
    private final Map<Resource, Integer> deliveries = new ConcurrentHashMap<>();
    private EventStreamFeed feed;

    private final FeedSink sink = new FeedSink() {
        @Override
        public void received(Resource resource, Object value, long receivedAtMillis) {
            received.put(resource, value);
            deliveries.merge(resource, 1, Integer::sum);
        }

        @Override
        public void connection(ConnectionState state) {
            states.add(state);
        }
    };

    @BeforeAll
    static void network() throws Exception {
        network = new LiveNetwork();
    }

    @AfterAll
    static void stopNetwork() throws Exception {
        if (network != null) {
            network.close();
        }
    }

    @AfterEach
    void closeFeed() {
        if (feed != null) {
            feed.close();
        }
    }

    private void open(Duration readPeriod) {
        // a 1 s keepalive: a dead stream is given up after 3 s rather than 15
        BrokerEvents.Settings s = new BrokerEvents.Settings(Duration.ofSeconds(1), Duration.ofMillis(100),
                Duration.ofMillis(500), 8 * 1024 * 1024, Duration.ofSeconds(2));
        feed = new EventStreamFeed(List.of(network.api()), readPeriod, Duration.ofSeconds(2), s, System::currentTimeMillis);
        feed.start(sink);
    }

    private ConnectionState.Kind kind() {
        return states.isEmpty() ? null : states.get(states.size() - 1).kind();
    }

    @Test
    @Order(1)
    void goesLiveWithEveryResourceAndReadsTheUnstreamedOnesOnlyOncePerPeriod() throws Exception {
        open(Duration.ofSeconds(10));
        LiveNetwork.await(() -> kind() == ConnectionState.Kind.LIVE, 10_000, "the feed live");
        LiveNetwork.await(() -> received.keySet().containsAll(List.of(Resource.values())), 10_000,
                "every resource the console shows, streamed or read");
        NetworkTopology t = (NetworkTopology) received.get(Resource.TOPOLOGY);
        assertEquals(4, t.routers().size());
        Thread.sleep(3_000);
        assertEquals(1, deliveries.get(Resource.TOPOLOGY), "the topology read once on connection, not every second");
        assertEquals(ConnectionState.Kind.LIVE, kind(), states.toString());
    }

    @Test
    @Order(2)
    void anAdmissionAppearsWithinACoupleOfPulses() throws Exception {
        open(Duration.ofSeconds(10));
        LiveNetwork.await(() -> kind() == ConnectionState.Kind.LIVE && received.containsKey(Resource.SUBSCRIPTIONS),
                10_000, "the feed live");
        HttpResponse<String> admitted = network.send("POST", "/subscriptions", "{\"variable\":\"" + LiveNetwork.ANGLE
                + "\",\"subscriberRouter\":\"r4\",\"subscriberLink\":\"cc\",\"qos\":{\"rateHz\":10,\"latencyBoundMs\":100,"
                + "\"paths\":1,\"serviceClass\":\"LRT\"}}");
        assertEquals(201, admitted.statusCode(), admitted.body());
        long sent = System.nanoTime();
        LiveNetwork.await(() -> subscriptions().stream().anyMatch(s -> s.variable().equals(LiveNetwork.ANGLE)), 2_000,
                "the admitted subscription delivered by the stream");
        long millis = (System.nanoTime() - sent) / 1_000_000;
        System.out.println("an admission reached the feed " + millis + " ms after the broker answered");
        assertTrue(millis < 1_000, "within a couple of 250 ms pulses: " + millis + " ms");
        long id = subscriptions().stream().filter(s -> s.variable().equals(LiveNetwork.ANGLE)).findFirst().orElseThrow().id();
        assertEquals(204, network.send("DELETE", "/subscriptions/" + id, null).statusCode());
        LiveNetwork.await(() -> subscriptions().stream().noneMatch(s -> s.id() == id), 2_000, "the tear-down delivered");
    }

    @Test
    @Order(3)
    void turnsStaleKeepingItsDataAcrossABrokerRestartAndIsLiveAgain() throws Exception {
        open(Duration.ofSeconds(10));
        LiveNetwork.await(() -> kind() == ConnectionState.Kind.LIVE && received.containsKey(Resource.FLOWS), 10_000,
                "the feed live");
        Object flowsBefore = received.get(Resource.FLOWS);
        long liveAt = states.get(states.size() - 1).lastGoodMillis();
        network.stopBroker();
        LiveNetwork.await(() -> kind() == ConnectionState.Kind.STALE || kind() == ConnectionState.Kind.RECONNECTING,
                10_000, "the feed says it is not live");
        int down = states.size() - 1;
        ConnectionState notLive = states.get(down);
        assertTrue(states.stream().anyMatch(s -> s.kind() == ConnectionState.Kind.STALE),
                "the stream that ended makes the data stale first: " + states);
        assertTrue(notLive.lastGoodMillis() >= liveAt, "the time of the last good data kept: " + notLive);
        assertSame(flowsBefore, received.get(Resource.FLOWS), "nothing delivered while the broker is gone");

        network.startBrokerAgain();
        LiveNetwork.await(() -> kind() == ConnectionState.Kind.LIVE, 30_000, "live again after the restart");
        assertTrue(states.subList(down, states.size()).stream().anyMatch(s -> s.kind() != ConnectionState.Kind.LIVE));
        LiveNetwork.await(() -> received.get(Resource.FLOWS) != flowsBefore, 10_000, "fresh data from the restarted broker");
    }

    @SuppressWarnings("unchecked")
    private List<Subscription> subscriptions() {
        Object s = received.get(Resource.SUBSCRIPTIONS);
        return s == null ? List.of() : (List<Subscription>) s;
    }
}
