package org.gridstat.gui.action;

import static org.junit.jupiter.api.Assertions.*;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.gridstat.client.BrokerConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The console's actions against a scripted broker (a JDK HTTP server): an action that gets no
 * answer in time is "outcome unknown", not "not done", and the same action asked again goes under
 * the same idempotency key (the broker would answer it with the first answer); an answered action
 * lets its key go.
 */
@Timeout(30)
class BrokerActionsTest {
    private static final String ADMITTED = "{\"id\":1,\"paths\":[[{\"router\":\"r1\"},{\"router\":\"r4\"}]]}";
    private final List<String> keys = new CopyOnWriteArrayList<>();
    /** Holds the first request's answer until the test has seen the client give up on it. */
    private final CountDownLatch release = new CountDownLatch(1);
    private volatile int failWith500 = 0;
    private HttpServer server;
    private BrokerActions actions;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/api/v1/", x -> {
            String key = x.getRequestHeaders().getFirst("Idempotency-Key");
            keys.add(x.getRequestMethod() + " " + x.getRequestURI().getPath() + " " + key);
            x.getRequestBody().readAllBytes();
            if (keys.size() == 1) {
                try {
                    release.await(20, TimeUnit.SECONDS); // the client's 300 ms pass first
                } catch (InterruptedException e) {
                    return;
                }
            }
            if (x.getRequestMethod().equals("DELETE")) {
                boolean fail = failWith500 > 0;
                failWith500 -= fail ? 1 : 0;
                answer(x, fail ? 500 : 204, fail ? "{\"error\":\"stored but not sent\"}" : "");
            } else {
                answer(x, x.getRequestMethod().equals("PUT") ? 200 : 201, ADMITTED);
            }
        });
        server.start();
        actions = new BrokerActions(BrokerConnection.connect(List.of(URI.create("http://127.0.0.1:"
                + server.getAddress().getPort())), Duration.ofMillis(300), Duration.ofMillis(300)));
    }

    @AfterEach
    void stop() {
        release.countDown();
        actions.close();
        server.stop(0);
    }

    private static void answer(com.sun.net.httpserver.HttpExchange x, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        try {
            x.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
            if (b.length > 0) {
                x.getResponseBody().write(b);
            }
        } finally {
            x.close();
        }
    }

    private static SubscriptionRequest request() {
        return SubscriptionRequest.check("a/b", "r4", "cc", "10", "100", "1", "LRT", "", List.of()).request();
    }

    private String key(int i) {
        return keys.get(i).substring(keys.get(i).lastIndexOf(' ') + 1);
    }

    @Test
    void anUnansweredActionIsUnknownAndItsRetryGoesUnderTheSameKey() throws Exception {
        ActionOutcome first = actions.admit(request()).get(10, TimeUnit.SECONDS);
        assertEquals(ActionOutcome.Verdict.UNKNOWN, first.verdict(), first.toString());
        assertTrue(first.message().startsWith("outcome unknown — check the flow table"), first.message());
        release.countDown();

        ActionOutcome retried = actions.admit(request()).get(10, TimeUnit.SECONDS);
        assertEquals(ActionOutcome.Verdict.DONE, retried.verdict(), retried.toString());
        assertEquals("admitted as subscription 1 on r1->r4", retried.message());
        assertEquals(2, keys.size(), keys.toString());
        assertEquals(key(0), key(1), "the retry is the same request to the broker: " + keys);

        actions.admit(request()).get(10, TimeUnit.SECONDS);
        assertNotEquals(key(1), key(2), "answered, the same form sent again is a new admission: " + keys);
    }

    @Test
    void aFailureAfterWhichTheChangeMayStandIsUnknownTooAndAnotherActionHasItsOwnKey() throws Exception {
        release.countDown();
        keys.add("(none) (none) (none)"); // the first request is not held
        failWith500 = 1;
        ActionOutcome failed = actions.tearDown(7).get(10, TimeUnit.SECONDS);
        assertEquals(ActionOutcome.Verdict.UNKNOWN, failed.verdict(), failed.toString());
        assertTrue(failed.message().contains("stored but not sent"), failed.message());
        assertEquals(ActionOutcome.Verdict.DONE, actions.tearDown(8).get(10, TimeUnit.SECONDS).verdict());
        ActionOutcome retried = actions.tearDown(7).get(10, TimeUnit.SECONDS);
        assertEquals(ActionOutcome.Verdict.DONE, retried.verdict(), retried.toString());
        assertEquals(key(1), key(3), "subscription 7's tear-down retried under its key: " + keys);
        assertNotEquals(key(1), key(2), "subscription 8's is another action: " + keys);
    }

    @Test
    void aChangeLeftUnknownIsNotReplayedForTheSameChangeAskedAfterAnotherChange() throws Exception {
        // rate 10 Hz: no answer in time (the broker made it); rate 20 Hz: done; rate 10 Hz again is
        // the operator's new change, not a retry: under the first key the broker would answer it with
        // the first answer and leave the subscription at 20 Hz while the console said done
        QosChange to10 = new QosChange(10.0, null, null, null);
        ActionOutcome first = actions.modify(5, to10).get(10, TimeUnit.SECONDS);
        assertEquals(ActionOutcome.Verdict.UNKNOWN, first.verdict(), first.toString());
        release.countDown();
        assertEquals(ActionOutcome.Verdict.DONE, actions.modify(5, new QosChange(20.0, null, null, null))
                .get(10, TimeUnit.SECONDS).verdict());
        assertEquals(ActionOutcome.Verdict.DONE, actions.modify(5, to10).get(10, TimeUnit.SECONDS).verdict());
        assertEquals(3, keys.size(), keys.toString());
        assertNotEquals(key(0), key(2), "another change came between: the same values are a new change: " + keys);
    }

    @Test
    void anAdmissionLeftUnknownIsNotReplayedAfterATearDown() throws Exception {
        // admitted as subscription 1 (the answer lost), torn down, then admitted again on purpose:
        // the first answer ("admitted as subscription 1") would name a subscription that is gone
        ActionOutcome first = actions.admit(request()).get(10, TimeUnit.SECONDS);
        assertEquals(ActionOutcome.Verdict.UNKNOWN, first.verdict(), first.toString());
        release.countDown();
        assertEquals(ActionOutcome.Verdict.DONE, actions.tearDown(1).get(10, TimeUnit.SECONDS).verdict());
        actions.admit(request()).get(10, TimeUnit.SECONDS);
        assertEquals(3, keys.size(), keys.toString());
        assertNotEquals(key(0), key(2), "a tear-down came between: the same form is a new admission: " + keys);
    }
}
