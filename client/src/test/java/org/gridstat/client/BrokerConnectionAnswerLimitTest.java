package org.gridstat.client;

import static org.junit.jupiter.api.Assertions.*;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** An answer longer than the connection reads fails the request, saying so, and is not asked again. */
class BrokerConnectionAnswerLimitTest {
    private HttpServer server;
    private final AtomicInteger calls = new AtomicInteger();
    private volatile int bodyBytes;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/v1/", exchange -> {
            calls.incrementAndGet();
            exchange.getRequestBody().readAllBytes();
            byte[] body = ("[\"" + "é".repeat((bodyBytes - 4) / 2) + "\"]").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try {
                exchange.getResponseBody().write(body);
            } catch (java.io.IOException e) {
                // the client stopped reading
            }
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private BrokerConnection connection() {
        return BrokerConnection.connect(List.of(URI.create("http://127.0.0.1:" + server.getAddress().getPort())),
                Duration.ofSeconds(5), Duration.ofSeconds(5)).withMaxAnswerBytes(64 * 1024);
    }

    @Test
    void anAnswerWithinTheBoundIsReadWhole() {
        bodyBytes = 64 * 1024;
        BrokerConnection.Answer a = connection().request("GET", "/flows", null);
        assertEquals(200, a.status());
        assertEquals(64 * 1024, a.body().getBytes(StandardCharsets.UTF_8).length, "decoded as the UTF-8 it is");
    }

    @Test
    void aLongerAnswerFailsTheRequestSayingSoAndIsNotAskedAgain() {
        bodyBytes = 1024 * 1024;
        BrokerException e = assertThrows(BrokerException.class, () -> connection().request("GET", "/flows", null));
        assertTrue(e.getMessage().contains("an answer over 65536 bytes, more than this client reads"), e.getMessage());
        assertEquals(1, calls.get(), "the same read would get the same answer");
        assertThrows(BrokerException.class, () -> connection().request("POST", "/subscriptions", "{}"));
        assertEquals(2, calls.get(), "a change answered at length is not sent again");
    }

    @Test
    void theDefaultBoundIsSixteenMebibytes() {
        assertEquals(16L * 1024 * 1024, BrokerConnection.DEFAULT_MAX_ANSWER_BYTES);
        assertThrows(IllegalArgumentException.class, () -> connection().withMaxAnswerBytes(0));
    }
}
