package org.gridstat.broker.hierarchy;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.gridstat.broker.BrokerReplica;
import org.gridstat.broker.api.ManagementApi;
import org.gridstat.broker.store.ZooKeeperFixture;
import org.gridstat.broker.topology.Topology;
import org.gridstat.client.BrokerConnection;
import org.gridstat.client.BrokerSubscription;
import org.gridstat.client.DeclaredVariable;
import org.gridstat.client.VariableDeclaration;
import org.gridstat.core.management.QosDocument;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A parent's leg call repeated from its intent, as a restarted parent repeats it, is the same
 * request to a real leaf's API: answered with the first answer under its key, nothing made twice.
 */
class LeafKeysTest {
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;
    private ZooKeeperFixture zk;
    private BrokerReplica leaf;
    private ManagementApi api;

    @BeforeEach
    void start() throws Exception {
        zk = new ZooKeeperFixture(dir);
        Topology t = Topology.builder().router("a", 100_000).router("b", 100_000)
                .between("a", "b", 12_500_000, MS, Topology.Builder.defaultShares()).build();
        leaf = new BrokerReplica(zk.client(), "/gridstat", new BrokerReplica.Settings("one",
                new InetSocketAddress("127.0.0.1", 0), "http://127.0.0.1:1/one"), t);
        leaf.start();
        long end = System.nanoTime() + 20_000_000_000L;
        while (!leaf.isLeader()) {
            assertTrue(System.nanoTime() < end, "the leaf leads");
            Thread.sleep(10);
        }
        api = new ManagementApi(new InetSocketAddress("127.0.0.1", 0), leaf);
    }

    @AfterEach
    void stop() {
        api.close();
        leaf.close();
        zk.close();
    }

    @Test
    void aLegRepeatedFromItsStoredIntentIsAnsweredWithTheFirstAnswer() throws Exception {
        LeafBroker west = LeafBroker.over(BrokerConnection.connect(URI.create("http://127.0.0.1:" + api.address().getPort())));
        DeclaredVariable v = west.declare(new VariableDeclaration("west/sub1/pmu1/freq", "a", 260,
                Duration.ofNanos(16_666_667), ServiceClass.HRT, ""));
        // a leg as the parent plans it: a share of the bound, what comes after the exit
        QosSpec part = QosSpec.builder().interval(v.interval()).latencyBound(Duration.ofNanos(48_999_999)).paths(1)
                .serviceClass(ServiceClass.HRT).build();
        String key = ParentIntent.legKey("0123456789abcdef", 42, 0);
        ParentIntent.Leg leg = new ParentIntent.Leg("west", "b", "w2-e1", QosDocument.of(part).withoutRate(),
                53_000_001, 1_208_001, key, ParentIntent.undoKey("0123456789abcdef", 42, 0), ParentIntent.LegState.CALLING,
                null);
        BrokerSubscription first = west.subscribe(v.name(), leg.router(), leg.link(), part, Duration.ofNanos(leg.downstreamNanos()),
                Duration.ofNanos(leg.restNanos()), key);

        // the intent as a restarted parent reads it back from ZooKeeper
        ObjectMapper json = new ObjectMapper();
        ParentIntent.Leg stored = json.readValue(json.writeValueAsBytes(leg), ParentIntent.Leg.class);
        BrokerSubscription again = west.subscribe(v.name(), stored.router(), stored.link(), stored.qos().toSpec(),
                Duration.ofNanos(stored.downstreamNanos()), Duration.ofNanos(stored.restNanos()), stored.key());
        assertEquals(first.id(), again.id(), "the first answer, not a second subscription");
        assertEquals(1, west.subscriptions().size());

        assertTrue(west.unsubscribe(again.id(), stored.undoKey()));
        assertTrue(west.unsubscribe(again.id(), stored.undoKey()), "a repeated teardown is answered as the first");
        assertEquals(0, west.subscriptions().size());
    }
}
