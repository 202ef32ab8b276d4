package org.gridstat.broker;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.apache.curator.framework.CuratorFramework;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.store.StateChange;
import org.gridstat.broker.store.ZooKeeperFixture;
import org.gridstat.broker.store.ZooKeeperStore;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two broker replicas on an embedded ZooKeeper: state kept there, leadership handed over intact. */
class BrokerReplicaTest {
    private static final long MS = 1_000_000L;
    private static final long SIXTY_HZ = 16_666_667L;
    /** (260 + 28) bytes at 60 Hz. */
    private static final long NEED = 288 * 60;

    @TempDir
    Path dir;

    /**
     * A line a-b-c plus a detour a-d-c whose a->d HRT share (10 % of 4.8 Mbit/s) holds three 60 Hz
     * streams and half a fourth. Three meet their 21.5 ms hop deadline there: 3 x 4.8 ms at the share
     * after 2.5 ms for a frame already on the wire. (At a 50 ms bound, a->d costs 2.476 ms of the
     * path's 5.499: its 1 ms delay, 0.476 ms for a 288-byte frame at 604,800 B/s and a's 1 ms
     * queueing budget, against d->c's 2.023 ms and c's 1 ms delivery; 50 x 2.476 / 5.499 = 22.5 ms,
     * less the 1 ms delay.)
     */
    private static Topology topology() {
        java.util.Map<ServiceClass, Integer> detour = new java.util.EnumMap<>(ServiceClass.class);
        detour.put(ServiceClass.HRT, 10);
        detour.put(ServiceClass.LRT, 30);
        detour.put(ServiceClass.BE, 20);
        return Topology.builder().router("a", 100_000).router("b", 100_000).router("c", 100_000).router("d", 100_000)
                .between("a", "b", 12_500_000, MS, Topology.Builder.defaultShares())
                .between("b", "c", 12_500_000, MS, Topology.Builder.defaultShares())
                .between("a", "d", 35 * NEED, MS, detour)
                .between("d", "c", 12_500_000, MS, Topology.Builder.defaultShares()).build();
    }

    private static QosSpec twoPaths() {
        return QosSpec.builder().rateHz(60).latencyBound(Duration.ofMillis(50)).paths(2)
                .serviceClass(ServiceClass.HRT).build();
    }

    private static BrokerReplica replica(CuratorFramework zk, String id, Topology t) throws Exception {
        BrokerReplica r = new BrokerReplica(zk, "/gridstat", new BrokerReplica.Settings(id,
                new InetSocketAddress("127.0.0.1", 0), "http://" + id + ".example:8080"), t);
        r.start();
        return r;
    }

    private static void awaitLeader(BrokerReplica r) throws InterruptedException {
        long end = System.nanoTime() + 20_000_000_000L;
        while (!r.isLeader()) {
            assertTrue(System.nanoTime() < end, "replica leads within 20 s");
            Thread.sleep(10);
        }
    }

    @Test
    void standbyTakesOverWithEverySubscriptionFlowAndReservationIntact() throws Exception {
        try (ZooKeeperFixture zk = new ZooKeeperFixture(dir)) {
            BrokerReplica first = replica(zk.client(), "one", topology());
            awaitLeader(first);
            BrokerReplica second = replica(zk.client(), "two", null); // reads the topology from ZooKeeper
            assertFalse(second.isLeader());
            NotLeaderException standby = assertThrows(NotLeaderException.class, second::leading);
            assertEquals("http://one.example:8080", standby.leaderApi());

            QosBroker leader = first.leading();
            for (int i = 0; i < 3; i++) {
                leader.declare("sub1/pmu" + i + "/freq", "a", 260, SIXTY_HZ, ServiceClass.HRT, "").join();
                AdmissionResult r = leader.subscribe("sub1/pmu" + i + "/freq", "c", "cc", twoPaths()).join();
                assertInstanceOf(AdmissionResult.Admitted.class, r, r.toString());
            }
            // a fourth 2-path stream no longer fits the detour's first link
            leader.declare("sub1/pmu3/freq", "a", 260, SIXTY_HZ, ServiceClass.HRT, "").join();
            AdmissionResult full = leader.subscribe("sub1/pmu3/freq", "c", "cc", twoPaths()).join();
            String reason = assertInstanceOf(AdmissionResult.Rejected.class, full).reason();
            assertTrue(reason.startsWith("link a->d class HRT"), reason);
            assertTrue(leader.unsubscribe(2));
            AdmissionResult again = leader.subscribe("sub1/pmu1/freq", "c", "cc", twoPaths()).join();
            assertInstanceOf(AdmissionResult.Admitted.class, again);

            List<AdmittedSubscription> before = leader.subscriptions();
            var flowsBefore = leader.flows();
            assertEquals(List.of(1L, 3L, 5L), before.stream().map(AdmittedSubscription::id).toList());

            first.close();
            awaitLeader(second);
            QosBroker resumed = second.leading();
            assertEquals(before, resumed.subscriptions(), "same subscriptions, requests and paths");
            assertEquals(withoutVersions(flowsBefore), withoutVersions(resumed.flows()), "same flows with the same ids");
            long highestBefore = flowsBefore.values().stream().flatMap(List::stream).mapToLong(f -> f.version()).max().orElseThrow();
            assertTrue(resumed.flows().values().stream().flatMap(List::stream).allMatch(f -> f.version() > highestBefore),
                    "the new leader's versions are above all of the old one's, so routers take its flows as current");
            assertEquals(4, resumed.variables().size());
            assertTrue(second.lastTakeoverMillis() >= 0);

            // reservations came back too: the detour is still full, and freeing one makes room again
            AdmissionResult stillFull = resumed.subscribe("sub1/pmu3/freq", "c", "cc", twoPaths()).join();
            assertTrue(assertInstanceOf(AdmissionResult.Rejected.class, stillFull).reason().startsWith("link a->d class HRT"));
            assertTrue(resumed.unsubscribe(1));
            AdmissionResult admitted = resumed.subscribe("sub1/pmu3/freq", "c", "cc", twoPaths()).join();
            AdmissionResult.Admitted a = assertInstanceOf(AdmissionResult.Admitted.class, admitted);
            assertEquals(7, a.subscriptionId(), "ids continue after the highest stored one (4 and 6 were rejected tries)");
            second.close();
        }
    }

    private static java.util.Map<String, java.util.Set<org.gridstat.core.control.ControlMessage.InstallFlow>> withoutVersions(
            java.util.Map<String, List<org.gridstat.core.control.ControlMessage.InstallFlow>> flows) {
        java.util.Map<String, java.util.Set<org.gridstat.core.control.ControlMessage.InstallFlow>> out = new java.util.TreeMap<>();
        flows.forEach((r, l) -> out.put(r, new java.util.HashSet<>(l.stream().map(f -> f.withVersion(1)).toList())));
        return out;
    }

    @Test
    void aNewLeaderNeverReusesTheIdsOfFlowsTornDownBeforeIt() throws Exception {
        try (ZooKeeperFixture zk = new ZooKeeperFixture(dir)) {
            BrokerReplica first = replica(zk.client(), "one", topology());
            awaitLeader(first);
            BrokerReplica second = replica(zk.client(), "two", null);
            QosBroker leader = first.leading();
            leader.declare("sub1/pmu1/freq", "a", 260, SIXTY_HZ, ServiceClass.HRT, "").join();
            leader.declare("sub1/pmu2/freq", "a", 260, SIXTY_HZ, ServiceClass.HRT, "").join();
            assertInstanceOf(AdmissionResult.Admitted.class, leader.subscribe("sub1/pmu1/freq", "c", "cc", twoPaths()).join());
            assertInstanceOf(AdmissionResult.Admitted.class, leader.subscribe("sub1/pmu2/freq", "c", "cc", twoPaths()).join());
            long highestUsed = leader.flows().values().stream().flatMap(List::stream).mapToLong(f -> f.spec().flowId())
                    .max().orElseThrow();
            assertTrue(leader.unsubscribe(2), "the flows with the highest ids are torn down");

            first.close();
            awaitLeader(second);
            QosBroker resumed = second.leading();
            resumed.declare("sub1/pmu3/freq", "a", 260, SIXTY_HZ, ServiceClass.HRT, "").join();
            assertInstanceOf(AdmissionResult.Admitted.class, resumed.subscribe("sub1/pmu3/freq", "c", "cc", twoPaths()).join());
            long lowestNew = resumed.flows().values().stream().flatMap(List::stream)
                    .filter(f -> f.variableId() == resumed.variables().stream()
                            .filter(v -> v.name().equals("sub1/pmu3/freq")).findFirst().orElseThrow().id())
                    .mapToLong(f -> f.spec().flowId()).min().orElseThrow();
            assertTrue(lowestNew > highestUsed, "new flow ids start above " + highestUsed + ", got " + lowestNew);
            second.close();
        }
    }

    @Test
    void aRememberedRequestIsStoredWithItsChangeAndForgottenOnlyWithALaterOne() throws Exception {
        RememberedRequests table = new RememberedRequests(2);
        var done = java.util.concurrent.CompletableFuture.<Void>completedFuture(null);
        var a = new org.gridstat.broker.store.RememberedRequest("a", "fa", 201, null);
        var b = new org.gridstat.broker.store.RememberedRequest("b", "fb", 204, null);
        var c = new org.gridstat.broker.store.RememberedRequest("c", "fc", 200,
                com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("id", 3));
        assertEquals(List.of(), table.add(a, done));
        assertEquals(List.of(), table.add(b, done));
        assertEquals(List.of("a"), table.add(c, done), "the oldest makes room");
        assertNull(table.get("a"));
        assertEquals(c, table.get("c").request());

        try (ZooKeeperFixture zk = new ZooKeeperFixture(dir)) {
            ZooKeeperStore store = new ZooKeeperStore(zk.client(), "/keys");
            store.ensureLayout();
            store.topology(topology());
            int epoch = store.claimEpoch();
            var journal = store.journal(epoch);
            var x = new org.gridstat.broker.catalog.PublishedVariable("x/a", 1, "a", 100, SIXTY_HZ, ServiceClass.LRT, "");
            var y = new org.gridstat.broker.catalog.PublishedVariable("x/b", 2, "a", 100, SIXTY_HZ, ServiceClass.LRT, "");
            journal.record(StateChange.declared(x).withRemembered(a, List.of())).join();
            journal.record(StateChange.declared(y).withRemembered(b, List.of()).withNextFlowId(17)).join();
            assertEquals(List.of(a, b), store.load(topology(), epoch).remembered(), "oldest first");
            assertEquals(17, store.load(topology(), epoch).nextFlowId(), "the next flow id is in the journal");
            journal.record(StateChange.removed(0).withRemembered(c, List.of("a"))).join();
            assertEquals(List.of(b, c), store.load(topology(), epoch).remembered(), "a forgotten only with c's change");
        }
    }

    @Test
    void aDeposedLeadersChangesAreFencedOut() throws Exception {
        try (ZooKeeperFixture zk = new ZooKeeperFixture(dir)) {
            ZooKeeperStore store = new ZooKeeperStore(zk.client(), "/fence");
            store.ensureLayout();
            store.topology(topology());
            int old = store.claimEpoch();
            int current = store.claimEpoch();
            assertTrue(current > old);
            var v = new org.gridstat.broker.catalog.PublishedVariable("x/y", 1, "a", 100, SIXTY_HZ, ServiceClass.LRT, "");
            CompletionException e = assertThrows(CompletionException.class,
                    () -> store.journal(old).record(StateChange.declared(v)).join());
            assertTrue(e.getCause().getMessage().contains("another replica has claimed leadership"), e.getCause().getMessage());
            assertTrue(store.load(topology(), current).variables().isEmpty(), "nothing of the fenced change was written");
            store.journal(current).record(StateChange.declared(v)).join();
            assertEquals(List.of(v), store.load(topology(), current).variables());
        }
    }

    @Test
    void aChangeRetriedOrOvertakenFailsInsteadOfApplyingTwiceOrOutOfOrder() throws Exception {
        try (ZooKeeperFixture zk = new ZooKeeperFixture(dir)) {
            ZooKeeperStore store = new ZooKeeperStore(zk.client(), "/journal");
            store.ensureLayout();
            store.topology(topology());
            int epoch = store.claimEpoch();
            var first = store.journal(epoch);
            var replay = store.journal(epoch); // starts from the same journal version, as a retried write would
            var a = new org.gridstat.broker.catalog.PublishedVariable("x/a", 1, "a", 100, SIXTY_HZ, ServiceClass.LRT, "");
            var b = new org.gridstat.broker.catalog.PublishedVariable("x/b", 2, "a", 100, SIXTY_HZ, ServiceClass.LRT, "");
            first.record(StateChange.declared(a).withNextSubscriptionId(9)).join();
            CompletionException e = assertThrows(CompletionException.class,
                    () -> replay.record(StateChange.declared(b)).join());
            assertTrue(e.getCause().getMessage().contains("the journal moved on"), e.getCause().getMessage());
            var state = store.load(topology(), epoch);
            assertEquals(List.of(a), state.variables());
            assertEquals(9, state.nextSubscriptionId(), "the next subscription id survives in the journal");
        }
    }

    @Test
    void aTopologyThatDiffersFromTheStoredOneIsRefused() throws Exception {
        try (ZooKeeperFixture zk = new ZooKeeperFixture(dir)) {
            ZooKeeperStore store = new ZooKeeperStore(zk.client(), "/topo");
            store.ensureLayout();
            assertEquals(topology().toText(), store.topology(topology()).toText());
            Topology other = Topology.builder().router("a", 1).build();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> store.topology(other));
            assertTrue(e.getMessage().contains("differs from the one ZooKeeper holds under /topo"), e.getMessage());
            IllegalStateException none = assertThrows(IllegalStateException.class,
                    () -> new ZooKeeperStore(zk.client(), "/empty").topology(null));
            assertTrue(none.getMessage().contains("holds no topology under /empty"), none.getMessage());
        }
    }

    @Test
    void aReplicaThatLostLeadershipBeforeTakingOverNeitherClaimsAnEpochNorServes() throws Exception {
        try (ZooKeeperFixture zk = new ZooKeeperFixture(dir)) {
            CuratorFramework admin = zk.client();
            HeldExecutor held = new HeldExecutor();
            BrokerReplica late = new BrokerReplica(zk.client(), "/gridstat", new BrokerReplica.Settings("late",
                    new InetSocketAddress("127.0.0.1", 0), "http://late.example:8080"), topology(), held);
            late.start();
            long end = System.nanoTime() + 20_000_000_000L;
            while (held.size() == 0) { // elected; its takeover waits in the held executor
                assertTrue(System.nanoTime() < end, "elected within 20 s");
                Thread.sleep(10);
            }
            // its leadership ends before it acts on it: its election node goes (as when its session expires)
            for (String node : admin.getChildren().forPath("/gridstat/election")) {
                admin.delete().forPath("/gridstat/election/" + node);
            }
            BrokerReplica next = replica(zk.client(), "next", null);
            awaitLeader(next);
            int epoch = admin.checkExists().forPath("/gridstat/epoch").getVersion();

            held.runAll(); // the stale takeover runs now

            assertEquals(epoch, admin.checkExists().forPath("/gridstat/epoch").getVersion(),
                    "no epoch claimed without the leadership");
            assertFalse(late.isLeader(), "the replica that lost leadership does not serve");
            next.leading().declare("sub1/pmu1/freq", "a", 260, SIXTY_HZ, ServiceClass.HRT, "").join(); // not fenced out
            assertTrue(next.isLeader());
            next.close();
            late.close();
        }
    }
}
