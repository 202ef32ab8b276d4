package org.gridstat.broker;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.gridstat.broker.control.RouterPresence;
import org.gridstat.broker.store.BrokerState;
import org.gridstat.broker.store.FencedWriteException;
import org.gridstat.broker.store.RememberedRequest;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Repeats of a keyed request racing the first, while its change is still being written:
 * made once, every repeat answered only once the first is durable, and a repeat of a first whose
 * write is fenced learns that it was not made.
 */
class KeyedRequestRaceTest {
    private static final long MS = 1_000_000L;
    private final List<CompletableFuture<Void>> writes = new CopyOnWriteArrayList<>();
    private QosBroker broker;

    @BeforeEach
    void start() {
        Topology t = Topology.builder().router("a", 1_000_000).router("b", 1_000_000)
                .between("a", "b", 125_000_000, MS, Topology.Builder.defaultShares()).build();
        broker = new QosBroker(BrokerState.empty(t), new InetSocketAddress("127.0.0.1", 0), change -> {
            CompletableFuture<Void> w = new CompletableFuture<>();
            writes.add(w);
            return w;
        }, RouterPresence.NONE, e -> { });
        CompletableFuture<?> declared = broker.declare("s1/pmu1/freq", "a", 260, 16_666_667, ServiceClass.HRT, "");
        writes.get(0).complete(null);
        declared.join();
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    private CompletableFuture<String> subscribe(String key, String fingerprint) {
        QosSpec qos = QosSpec.builder().rateHz(60).latencyBound(Duration.ofMillis(50)).serviceClass(ServiceClass.HRT).build();
        return broker.once(key, fingerprint, c -> new RememberedRequest.Answer(201,
                        com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.numberNode(c.putSubscription().id())),
                () -> broker.subscribe("s1/pmu1/freq", "b", "bb", qos).thenApply(r -> "unused"),
                first -> first.fingerprint().equals(fingerprint) ? first.status() + " #" + first.body().asLong() : "422");
    }

    @Test
    void repeatsRacingTheFirstAreMadeOnceAndAnsweredOnceItIsDurable() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<CompletableFuture<String>>> sent = new java.util.ArrayList<>();
            for (int i = 0; i < 16; i++) {
                String fp = i % 4 == 3 ? "other" : "same";
                sent.add(pool.submit(() -> subscribe("k-1", fp)));
            }
            List<CompletableFuture<String>> answers = new java.util.ArrayList<>();
            for (Future<CompletableFuture<String>> f : sent) {
                answers.add(f.get());
            }
            assertEquals(1, broker.subscriptions().size(), "made once");
            assertEquals(2, writes.size(), "one write for the declaration, one for the subscription");
            for (CompletableFuture<String> a : answers) {
                assertFalse(a.isDone(), "no answer before the change is durable");
            }
            writes.get(1).complete(null);
            long made = answers.stream().map(CompletableFuture::join).filter("201 #1"::equals).count();
            long refused = answers.stream().map(CompletableFuture::join).filter("422"::equals).count();
            assertEquals(16, made + refused, answers.toString());
            // whichever body came first is the one made; the other body's requests are refused
            assertTrue(made == 12 && refused == 4 || made == 4 && refused == 12, answers.toString());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aRepeatOfAFirstWhoseWriteIsFencedLearnsItWasNotMade() {
        CompletableFuture<String> first = subscribe("k-2", "same");
        CompletableFuture<String> repeat = subscribe("k-2", "same");
        writes.get(1).completeExceptionally(new FencedWriteException("another replica has claimed leadership"));
        for (CompletableFuture<String> f : List.of(first, repeat)) {
            CompletionException e = assertThrows(CompletionException.class, f::join);
            assertInstanceOf(FencedWriteException.class, e.getCause());
        }
        assertThrows(BrokerStoppedException.class, () -> subscribe("k-2", "same"), "a stopped broker takes nothing more");
    }
}
