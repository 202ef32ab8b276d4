package org.gridstat.gui.feed;

import static org.junit.jupiter.api.Assertions.*;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.gridstat.gui.model.BrokerStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The polling feed against scripted replicas (a JDK HTTP server each): it follows a standby's 503
 * to the leader, marks a slow broker STALE and a gone one RECONNECTING while keeping what it had,
 * and is LIVE again when a leader answers.
 */
class PollingFeedTest {
    private final List<HttpServer> servers = new CopyOnWriteArrayList<>();
    private final List<ConnectionState> states = new CopyOnWriteArrayList<>();
    private final Map<Resource, Object> received = new ConcurrentHashMap<>();
    private volatile long leaderDelayMillis;
    private PollingFeed feed;

    private final FeedSink sink = new FeedSink() {
        @Override
        public void received(Resource resource, Object value, long receivedAtMillis) {
            received.put(resource, value);
        }

        @Override
        public void connection(ConnectionState state) {
            states.add(state);
        }
    };

    private HttpServer leader(int port) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        s.createContext("/api/v1/", x -> {
            try {
                Thread.sleep(leaderDelayMillis);
            } catch (InterruptedException e) {
                return;
            }
            String route = x.getRequestURI().getPath().substring("/api/v1/".length());
            String body = switch (route) {
                case "status" -> "{\"replica\":\"b1\",\"leader\":true,\"leaderApi\":\"http://127.0.0.1:" + x.getLocalAddress().getPort()
                        + "\",\"lastTakeoverMillis\":12}";
                case "topology" -> "{\"routers\":[{\"id\":\"r1\",\"capacityEventsPerSecond\":1000,\"queueingNanos\":0,"
                        + "\"cloud\":\"\"}],\"links\":[]}";
                case "alarms" -> "{\"decisions\":[],\"noise\":[]}";
                default -> "[]";
            };
            answer(x, 200, body);
        });
        s.start();
        servers.add(s);
        return s;
    }

    private HttpServer standby(String leaderUrl) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        s.createContext("/api/v1/", x -> answer(x, 503, "{\"error\":\"not the leader\",\"leader\":\"" + leaderUrl + "\"}"));
        s.start();
        servers.add(s);
        return s;
    }

    private static void answer(com.sun.net.httpserver.HttpExchange x, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().add("Content-Type", "application/json");
        x.sendResponseHeaders(status, b.length);
        x.getResponseBody().write(b);
        x.close();
    }

    private static URI url(HttpServer s) {
        return URI.create("http://127.0.0.1:" + s.getAddress().getPort());
    }

    @AfterEach
    void stop() {
        if (feed != null) {
            feed.close();
        }
        servers.forEach(s -> s.stop(0));
    }

    @Test
    void followsTheStandbysPointerToTheLeaderAndIsLive() throws Exception {
        HttpServer leader = leader(0);
        HttpServer standby = standby(url(leader).toString());
        feed = new PollingFeed(List.of(url(standby)), Duration.ofMillis(100), Duration.ofMillis(500),
                System::currentTimeMillis);
        feed.start(sink);
        await(() -> last() != null && last().kind() == ConnectionState.Kind.LIVE, "live through the leader");
        assertEquals(Resource.values().length, received.size(), "every resource delivered: " + received.keySet());
        assertEquals(new BrokerStatus("b1", true, url(leader).toString(), 12), received.get(Resource.STATUS));
    }

    @Test
    void aSlowBrokerIsStaleAGoneOneReconnectingAndTheFeedIsLiveAgainWhenALeaderAnswers() throws Exception {
        HttpServer leader = leader(0);
        int port = leader.getAddress().getPort();
        feed = new PollingFeed(List.of(url(leader)), Duration.ofMillis(100), Duration.ofMillis(300),
                System::currentTimeMillis);
        feed.start(sink);
        await(() -> last() != null && last().kind() == ConnectionState.Kind.LIVE, "live");
        long lastGood = last().lastGoodMillis();
        assertTrue(lastGood > 0);

        leaderDelayMillis = 1_000; // answers, but after the request timeout
        await(() -> last().kind() == ConnectionState.Kind.STALE, "stale while the broker is slow");
        assertTrue(last().lastGoodMillis() >= lastGood, "the time of the last good data is kept");
        assertTrue(last().detail().contains("did not answer"), last().detail());
        assertNotNull(received.get(Resource.TOPOLOGY), "what was received stays");

        leaderDelayMillis = 0;
        leader.stop(0);
        servers.remove(leader);
        await(() -> last().kind() == ConnectionState.Kind.RECONNECTING, "reconnecting while nothing answers");

        leader(port); // the broker back on its address
        await(() -> last().kind() == ConnectionState.Kind.LIVE, "live again");
        assertTrue(last().lastGoodMillis() > lastGood);
    }

    private ConnectionState last() {
        return states.isEmpty() ? null : states.get(states.size() - 1);
    }

    private static void await(BooleanSupplier done, String what) throws InterruptedException {
        long end = System.nanoTime() + 10_000_000_000L;
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, "timed out waiting until " + what);
            Thread.sleep(10);
        }
    }
}
