package org.gridstat.client;

import static org.junit.jupiter.api.Assertions.*;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What a connection sends again after a lost answer: a broker on loopback that drops the first exchange. */
class BrokerConnectionRetryTest {
    private HttpServer server;
    private final List<String> keys = new CopyOnWriteArrayList<>();
    private final AtomicInteger calls = new AtomicInteger();

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/v1/", exchange -> {
            keys.add(String.valueOf(exchange.getRequestHeaders().getFirst("Idempotency-Key")));
            exchange.getRequestBody().readAllBytes();
            if (calls.incrementAndGet() == 1) {
                exchange.close(); // the request arrived, the answer is lost: the client sees an IOException
                return;
            }
            boolean get = exchange.getRequestMethod().equals("GET");
            byte[] body = (get ? "[]" : "{\"name\":\"a/b\",\"id\":7,\"router\":\"r1\",\"frameBytes\":64,"
                    + "\"intervalNanos\":16666667,\"serviceClass\":\"HRT\",\"correlationGroup\":\"\"}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(get ? 200 : 201, body.length);
            exchange.getResponseBody().write(body);
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
                Duration.ofSeconds(5), Duration.ofSeconds(5));
    }

    @Test
    void aMutatingRequestIsSentAgainOnlyWithTheKeyOfItsFirstTry() {
        DeclaredVariable v = connection().declare(VariableDeclaration.of("a/b", "r1", 64, Duration.ofNanos(16_666_667),
                org.gridstat.core.model.ServiceClass.HRT));
        assertEquals(7, v.id().value());
        assertEquals(2, keys.size(), "sent again after the lost answer");
        assertNotEquals("null", keys.get(0), "a POST always carries a key");
        assertEquals(keys.get(0), keys.get(1), "the retry carries the first try's key");

        keys.clear();
        calls.set(0);
        connection().request("DELETE", "/subscriptions/3", null);
        assertEquals(2, keys.size());
        assertNotEquals("null", keys.get(0));
        assertEquals(keys.get(0), keys.get(1));
    }

    @Test
    void everyCallHasItsOwnKey() {
        calls.set(1); // no lost answers
        BrokerConnection c = connection();
        c.request("POST", "/variables", "{}");
        c.request("POST", "/variables", "{}");
        assertEquals(2, keys.size());
        assertNotEquals(keys.get(0), keys.get(1));
    }

    @Test
    void aReadIsRetriedWithoutAKey() {
        assertEquals(200, connection().request("GET", "/variables", null).status());
        assertEquals(List.of("null", "null"), keys);
    }
}
