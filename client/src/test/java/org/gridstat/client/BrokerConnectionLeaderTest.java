package org.gridstat.client;

import static org.junit.jupiter.api.Assertions.*;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Following a standby's 503 to the leader it names: never a ring, never an address no request can go to. */
class BrokerConnectionLeaderTest {
    private final List<HttpServer> servers = new ArrayList<>();

    /** A replica answering every request with what {@code answer} holds at the time: a status and a body. */
    private HttpServer replica(AtomicReference<String[]> answer, AtomicInteger asked) throws Exception {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        s.createContext("/api/v1/", exchange -> {
            asked.incrementAndGet();
            exchange.getRequestBody().readAllBytes();
            String[] a = answer.get();
            byte[] body = a[1].getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(Integer.parseInt(a[0]), body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        s.start();
        servers.add(s);
        return s;
    }

    private static String url(HttpServer s) {
        return "http://127.0.0.1:" + s.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        servers.forEach(s -> s.stop(0));
    }

    @Test
    @org.junit.jupiter.api.Timeout(20) // before: an endless loop between the two
    void twoReplicasNamingEachOtherAreAskedInTurnWithinTheDeadlineNotInATightLoop() throws Exception {
        AtomicReference<String[]> a = new AtomicReference<>();
        AtomicReference<String[]> b = new AtomicReference<>();
        AtomicInteger asked = new AtomicInteger();
        HttpServer ra = replica(a, asked);
        HttpServer rb = replica(b, asked);
        a.set(new String[] {"503", "{\"error\":\"standby\",\"leader\":\"" + url(rb) + "\"}"});
        b.set(new String[] {"503", "{\"error\":\"standby\",\"leader\":\"" + url(ra) + "\"}"});
        BrokerConnection c = BrokerConnection.connect(List.of(URI.create(url(ra))), Duration.ofSeconds(2),
                Duration.ofMillis(500));
        long started = System.nanoTime();
        BrokerException e = assertThrows(BrokerException.class, () -> c.request("GET", "/status", null));
        assertTrue(e.getMessage().contains("no broker replica leads"), e.getMessage());
        assertTrue(System.nanoTime() - started < 5_000_000_000L, "ended at its deadline");
        // 100 ms pauses between rounds: a handful of requests in 0.5 s, not thousands
        assertTrue(asked.get() < 40, "requests made: " + asked.get());
    }

    @Test
    void aReplicaThatDoesNotAnswerInTimeIsNotAskedFirstAgain() throws Exception {
        // the old leader hung (its connections taken by the kernel, never answered) and the other
        // replica took over: every request went to the hung one and timed out, for as long as it hung
        try (java.net.ServerSocket hung = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            AtomicInteger asked = new AtomicInteger();
            HttpServer leader = replica(new AtomicReference<>(new String[] {"200", "{\"replica\":\"b2\"}"}), asked);
            BrokerConnection c = BrokerConnection.connect(List.of(URI.create("http://127.0.0.1:" + hung.getLocalPort()),
                    URI.create(url(leader))), Duration.ofMillis(300), Duration.ofMillis(300));
            BrokerException e = assertThrows(BrokerException.class, () -> c.request("GET", "/status", null));
            assertTrue(e.getMessage().contains("did not answer"), e.getMessage());
            assertEquals(200, c.request("GET", "/status", null).status(), "the next request asks the next replica");
            assertEquals(200, c.request("GET", "/status", null).status(), "and stays with it");
            assertEquals(2, asked.get());
        }
    }

    @Test
    void aLeaderAddressNoRequestCanGoToIsNotFollowedAndTheNextRequestStillWorks() throws Exception {
        AtomicReference<String[]> answer = new AtomicReference<>(new String[] {"503",
                "{\"error\":\"standby\",\"leader\":\"http://0.0.0.0:8470\"}"});
        AtomicInteger asked = new AtomicInteger();
        HttpServer r = replica(answer, asked);
        BrokerConnection c = BrokerConnection.connect(List.of(URI.create(url(r))), Duration.ofSeconds(2),
                Duration.ofMillis(300));
        BrokerException e = assertThrows(BrokerException.class, () -> c.request("GET", "/status", null));
        assertTrue(e.getMessage().contains("is not http://host:port"), e.getMessage());
        answer.set(new String[] {"503", "{\"error\":\"standby\",\"leader\":\"::not a uri\"}"});
        assertThrows(BrokerException.class, () -> c.request("GET", "/status", null));
        answer.set(new String[] {"200", "{\"replica\":\"b1\"}"});
        assertEquals(200, c.request("GET", "/status", null).status(), "still asking the configured replica");
    }

    @Test
    void leaderAddressesAreJudgedByTheirForm() {
        assertEquals(URI.create("http://10.0.0.2:8470"), BrokerConnection.leaderNamed("http://10.0.0.2:8470"));
        for (String bad : new String[] {null, "", "http://0.0.0.0:8470", "http://[::]:8470", "https://b:8470",
                "http://b", "b:8470", "http://[:8470"}) {
            assertNull(BrokerConnection.leaderNamed(bad), String.valueOf(bad));
        }
    }
}
