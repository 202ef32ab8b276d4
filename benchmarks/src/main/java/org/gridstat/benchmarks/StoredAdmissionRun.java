package org.gridstat.benchmarks;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.SubscriptionRequest;
import org.gridstat.broker.store.BrokerState;
import org.gridstat.broker.store.StateJournal;
import org.gridstat.broker.store.ZooKeeperConnection;
import org.gridstat.broker.store.ZooKeeperStore;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;

/**
 * Admissions per second with the broker's state in ZooKeeper: a broker on the generated
 * 1,000-router topology admits 60 Hz HRT subscriptions with k = 2 between random routers, each
 * recorded (subscription and every flow it adds, one transaction) in an embedded ZooKeeper that
 * syncs its log to disk, with up to 256 admissions in flight; then it tears them all down. The
 * same runs with a memory-only journal for comparison. Arguments: [subscriptions] [rounds] [keyed]:
 * with {@code keyed}, each admission is made as a request with an idempotency key, stored in its
 * transaction (what the management API does for a client that sends one).
 */
public final class StoredAdmissionRun {
    private static final int IN_FLIGHT = 256;
    private static boolean keyed;

    private StoredAdmissionRun() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        keyed = args.length > 2 && args[2].equals("keyed");
        Topology topology = GridTopology.generate();
        System.out.printf("topology: %d routers, %d directed links; %d subscriptions per round, k = 2%n",
                topology.routers().size(), topology.links().size(), n);
        for (int round = 1; round <= rounds; round++) {
            Path dir = Files.createTempDirectory("gridstat-admission-zk");
            try (ZooKeeperConnection zk = ZooKeeperConnection.open("", dir, 0, Duration.ofSeconds(10))) {
                ZooKeeperStore store = new ZooKeeperStore(zk.client(), "/bench");
                store.ensureLayout();
                store.topology(topology);
                int epoch = store.claimEpoch();
                run("ZooKeeper", round, n, new QosBroker(BrokerState.empty(topology), new InetSocketAddress("127.0.0.1", 0),
                        store.journal(epoch), store, e -> { }));
            } finally {
                try (var walk = Files.walk(dir)) {
                    walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
            run("memory only", round, n, new QosBroker(BrokerState.empty(topology), new InetSocketAddress("127.0.0.1", 0),
                    StateJournal.MEMORY_ONLY, org.gridstat.broker.control.RouterPresence.NONE, e -> { }));
        }
    }

    private static void run(String journal, int round, int n, QosBroker broker) {
        QosSpec qos = QosSpec.builder().rateHz(60).latencyBound(Duration.ofMillis(200)).paths(2)
                .serviceClass(ServiceClass.HRT).build();
        Random random = new Random(round);
        ArrayDeque<CompletableFuture<?>> inFlight = new ArrayDeque<>();
        long t0 = System.nanoTime();
        for (int i = 1; i <= n; i++) {
            int from = random.nextInt(GridTopology.ROUTERS);
            int to = (from + 1 + random.nextInt(GridTopology.ROUTERS - 1)) % GridTopology.ROUTERS;
            SubscriptionRequest request = new SubscriptionRequest(i, VariableId.of(i), "r" + from, "r" + to, 260, qos,
                    "cc", 16_666_667L);
            CompletableFuture<?> f = !keyed ? broker.subscribeAsync(request)
                    : broker.<Object>once(java.util.UUID.randomUUID().toString(), "fingerprint",
                            c -> new org.gridstat.broker.store.RememberedRequest.Answer(201,
                                    com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                                            .put("id", c.putSubscription().id())),
                            () -> broker.subscribeAsync(request).thenApply(r -> r), r -> r);
            inFlight.add(f);
            if (inFlight.size() == IN_FLIGHT) {
                inFlight.poll().join();
            }
        }
        inFlight.forEach(CompletableFuture::join);
        long admitNanos = System.nanoTime() - t0;
        int admitted = broker.subscriptions().size();
        inFlight.clear();
        t0 = System.nanoTime();
        for (int i = 1; i <= n; i++) {
            inFlight.add(broker.unsubscribeAsync(i));
            if (inFlight.size() == IN_FLIGHT) {
                inFlight.poll().join();
            }
        }
        inFlight.forEach(CompletableFuture::join);
        long releaseNanos = System.nanoTime() - t0;
        broker.close();
        System.out.printf("round %d, %-11s%s: %d admitted of %d: %.0f admissions/s; teardown %.0f/s%n", round, journal,
                keyed ? " (keyed)" : "", admitted, n, n / (admitNanos / 1e9), n / (releaseNanos / 1e9));
    }
}
