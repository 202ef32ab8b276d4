package org.gridstat.client.events;

import static org.junit.jupiter.api.Assertions.*;

import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The reader against scripted servers on loopback, for what a real broker cannot be made to do on
 * demand: fall silent, send an event over the bound, answer in chunks, refuse. (Against the real
 * route: the broker module's BrokerEventsRouteTest.) A 50 ms keepalive and 10 ms back-off keep it
 * quick.
 */
@Timeout(60)
class BrokerEventsTest {
    private static final BrokerEvents.Settings QUICK = new BrokerEvents.Settings(Duration.ofMillis(50), Duration.ofMillis(10),
            Duration.ofMillis(50), 1024, Duration.ofSeconds(2));
    private static final String SNAPSHOT = "event: snapshot\nid: 1\ndata: {\"flows\":[]}\n\n";

    private final List<String> events = new CopyOnWriteArrayList<>();
    private final List<String> states = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> closing = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
    }

    private FakeBroker broker(FakeBroker.Script... scripts) throws Exception {
        FakeBroker b = new FakeBroker(scripts);
        closing.add(b);
        return b;
    }

    private BrokerEvents read(URI... replicas) {
        BrokerEvents e = BrokerEvents.open(List.of(replicas), QUICK, (name, data) -> events.add(name + " " + data),
                (state, broker, detail) -> states.add(state + (detail == null ? "" : " " + detail)));
        closing.add(0, e);
        return e;
    }

    private static void await(BooleanSupplier done, String what) throws InterruptedException {
        long end = System.nanoTime() + 10_000_000_000L;
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, what);
            Thread.sleep(5);
        }
    }

    @Test
    void aStreamSilentForThreeKeepalivesIsGivenUpAndReadAfresh() throws Exception {
        FakeBroker b = broker(out -> {
            FakeBroker.write(out, FakeBroker.STREAM_HEAD + SNAPSHOT);
            FakeBroker.silent(out);
        });
        BrokerEvents e = read(b.uri());
        await(() -> e.counters().staleStreams() >= 1 && events.size() >= 2, "stale, then a second snapshot: " + states);
        assertEquals("snapshot {\"flows\":[]}", events.get(0));
        assertEquals("snapshot {\"flows\":[]}", events.get(1), "the new stream begins with a snapshot");
        assertEquals(List.of("CONNECTING", "LIVE", "STALE no data from " + b.uri() + " for 150 ms", "CONNECTING", "LIVE"),
                states.subList(0, 5));
    }

    @Test
    void keepalivesKeepAStreamLive() throws Exception {
        FakeBroker b = broker(out -> {
            FakeBroker.write(out, FakeBroker.STREAM_HEAD + SNAPSHOT);
            for (int i = 0; i < 30; i++) { // 1.5 s, longer than the 900 ms that makes a silent stream stale
                Thread.sleep(50);
                FakeBroker.write(out, ": keepalive\n\n");
            }
            FakeBroker.write(out, "event: routers\nid: 2\ndata: []\n\n");
            FakeBroker.silent(out);
        });
        BrokerEvents e = BrokerEvents.open(List.of(b.uri()), new BrokerEvents.Settings(Duration.ofMillis(300),
                Duration.ofMillis(10), Duration.ofMillis(50), 1024, Duration.ofSeconds(2)),
                (name, data) -> events.add(name + " " + data), (state, broker, detail) -> states.add(state.name()));
        closing.add(0, e);
        await(() -> events.size() >= 2, "the event after the keepalives");
        assertEquals("routers []", events.get(1));
        assertEquals(0, e.counters().staleStreams());
        assertEquals(1, b.connections());
    }

    @Test
    void anEventOverTheBoundClosesTheConnectionAndIsCounted() throws Exception {
        FakeBroker b = broker(out -> FakeBroker.write(out, FakeBroker.STREAM_HEAD + SNAPSHOT + "event: flows\ndata: ["
                        + "1,".repeat(1000) + "1]\n\n"),
                out -> {
                    FakeBroker.write(out, FakeBroker.STREAM_HEAD + SNAPSHOT);
                    FakeBroker.silent(out);
                });
        BrokerEvents e = read(b.uri());
        await(() -> events.size() >= 2, "a snapshot from the second connection");
        assertEquals(1, e.counters().oversizeEvents());
        assertTrue(events.stream().allMatch(x -> x.startsWith("snapshot")), "the oversized event was not handed on: " + events);
        assertTrue(states.contains("DISCONNECTED an event over 1024 bytes from " + b.uri() + "; connection closed"),
                states.toString());
    }

    @Test
    void aStandbyNamingTheLeaderIsFollowed() throws Exception {
        FakeBroker leader = broker(out -> {
            FakeBroker.write(out, FakeBroker.STREAM_HEAD + SNAPSHOT);
            FakeBroker.silent(out);
        });
        String refusal = "{\"error\":\"replica two is a standby\",\"leader\":\"" + leader.uri() + "\"}";
        FakeBroker standby = broker(out -> FakeBroker.write(out, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: "
                + "application/json\r\nContent-Length: " + refusal.length() + "\r\n\r\n" + refusal));
        BrokerEvents e = read(standby.uri());
        await(() -> states.contains("LIVE"), "live on the leader: " + states);
        assertEquals(leader.uri(), e.broker());
        assertEquals(1, e.counters().leaderRedirects());
        assertEquals(List.of("CONNECTING", "CONNECTING", "LIVE"), states, "followed at once");
    }

    @Test
    void anUnreachableReplicaMakesWayForTheNext() throws Exception {
        URI nobody;
        try (ServerSocket s = new ServerSocket(0)) {
            nobody = URI.create("http://127.0.0.1:" + s.getLocalPort());
        }
        FakeBroker b = broker(out -> {
            FakeBroker.write(out, FakeBroker.STREAM_HEAD + SNAPSHOT);
            FakeBroker.silent(out);
        });
        BrokerEvents e = read(nobody, b.uri());
        await(() -> states.contains("LIVE"), "live on the second replica: " + states);
        assertTrue(states.get(1).startsWith("DISCONNECTED cannot reach " + nobody), states.toString());
    }

    @Test
    void aReplicaThatTakesTheConnectionButNeverAnswersMakesWayForTheNext() throws Exception {
        // a hung process, or something else on the port: connected, and no answer's head ever comes
        FakeBroker hung = broker(FakeBroker::silent);
        FakeBroker b = broker(out -> {
            FakeBroker.write(out, FakeBroker.STREAM_HEAD + SNAPSHOT);
            FakeBroker.silent(out);
        });
        BrokerEvents e = read(hung.uri(), b.uri());
        await(() -> states.contains("LIVE"), "live on the second replica: " + states);
        assertEquals(b.uri(), e.broker());
    }

    @Test
    void aStandbyNamingALeaderNoConnectionCanGoToMakesWayForTheNextReplica() throws Exception {
        // a port out of range: the reader's thread died on it, the console left connecting for ever
        String refusal = "{\"error\":\"replica two is a standby\",\"leader\":\"http://127.0.0.1:84700\"}";
        FakeBroker standby = broker(out -> FakeBroker.write(out, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: "
                + "application/json\r\nContent-Length: " + refusal.length() + "\r\n\r\n" + refusal));
        FakeBroker b = broker(out -> {
            FakeBroker.write(out, FakeBroker.STREAM_HEAD + SNAPSHOT);
            FakeBroker.silent(out);
        });
        BrokerEvents e = read(standby.uri(), b.uri());
        await(() -> states.contains("LIVE"), "live on the second replica: " + states);
        assertEquals(b.uri(), e.broker());
        assertEquals(0, e.counters().leaderRedirects(), "not followed: " + states);
    }

    @Test
    void twoStandbysNamingEachOtherMakeWayForTheOtherReplicasGiven() throws Exception {
        // each names the other as the leader (a wrong --api-advertised, or views of an election that
        // disagree): the reader went back and forth between them for ever, the leader given third unasked
        FakeBroker leader = broker(out -> {
            FakeBroker.write(out, FakeBroker.STREAM_HEAD + SNAPSHOT);
            FakeBroker.silent(out);
        });
        java.util.concurrent.atomic.AtomicReference<URI> other = new java.util.concurrent.atomic.AtomicReference<>();
        FakeBroker.Script namingTheOther = out -> {
            String refusal = "{\"error\":\"a standby\",\"leader\":\"" + other.get() + "\"}";
            FakeBroker.write(out, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: "
                    + refusal.length() + "\r\n\r\n" + refusal);
        };
        FakeBroker a = broker(namingTheOther);
        java.util.concurrent.atomic.AtomicReference<URI> aUri = new java.util.concurrent.atomic.AtomicReference<>(a.uri());
        FakeBroker b = broker(out -> {
            String refusal = "{\"error\":\"a standby\",\"leader\":\"" + aUri.get() + "\"}";
            FakeBroker.write(out, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: "
                    + refusal.length() + "\r\n\r\n" + refusal);
        });
        other.set(b.uri());
        BrokerEvents e = read(a.uri(), b.uri(), leader.uri());
        await(() -> states.contains("LIVE"), "live on the third replica");
        assertEquals(leader.uri(), e.broker());
    }

    @Test
    void aStreamInChunksReadsAsOneAndAFailingListenerDoesNotEndIt() throws Exception {
        String body = SNAPSHOT + "event: alarms\nid: 2\ndata: {}\n\n";
        FakeBroker b = broker(out -> {
            FakeBroker.write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
            for (int i = 0; i < body.length(); i += 7) { // chunks that split lines and events
                String chunk = body.substring(i, Math.min(body.length(), i + 7));
                FakeBroker.write(out, Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n");
            }
            FakeBroker.write(out, "0\r\n\r\n");
            FakeBroker.silent(out);
        });
        BrokerEvents e = BrokerEvents.open(List.of(b.uri()), QUICK, (name, data) -> {
            events.add(name + " " + data);
            if (name.equals("snapshot")) {
                throw new IllegalStateException("a console's bug");
            }
        }, (state, broker, detail) -> states.add(state.name()));
        closing.add(0, e);
        await(() -> events.size() >= 2, "both events");
        assertEquals(List.of("snapshot {\"flows\":[]}", "alarms {}"), events.subList(0, 2));
    }

    @Test
    void aRefusalIsReportedAndTriedAgainAfterABackoff() throws Exception {
        String refusal = "{\"error\":\"no resource /api/v1/events\"}";
        FakeBroker b = broker(out -> FakeBroker.write(out, "HTTP/1.1 404 Not Found\r\nContent-Length: " + refusal.length()
                + "\r\n\r\n" + refusal));
        BrokerEvents e = read(b.uri());
        await(() -> b.connections() >= 3, "tried again");
        assertEquals("DISCONNECTED " + b.uri() + " answered 404: no resource /api/v1/events", states.get(1));
        e.close();
        assertEquals("DISCONNECTED closed", states.get(states.size() - 1));
        int tried = b.connections();
        Thread.sleep(100);
        assertEquals(tried, b.connections(), "closed: no more attempts");
        assertEquals(0, e.counters().streams());
    }
}
