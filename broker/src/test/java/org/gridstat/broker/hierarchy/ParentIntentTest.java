package org.gridstat.broker.hierarchy;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.gridstat.broker.store.ZooKeeperFixture;
import org.gridstat.broker.topology.Topology;
import org.gridstat.client.BrokerException;
import org.gridstat.client.BrokerSubscription;
import org.gridstat.client.DeclaredVariable;
import org.gridstat.client.SubscriptionRejectedException;
import org.gridstat.client.VariableDeclaration;
import org.gridstat.core.management.SubscriptionDocument.HopDocument;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.model.VariableName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The parent broker records its intent before calling the leaves, calls them outside its lock, and
 * a parent started on the store of one that stopped half way leaves no orphan leg. Leaves are
 * scripted in memory; the store is a real ZooKeeper.
 */
class ParentIntentTest {
    private static final long MS = 1_000_000L;
    private static final String WEST_VAR = "west/sub1/pmu1/freq";
    private static final String EAST_VAR = "east/sub1/pmu1/freq";
    private static final QosSpec QOS = QosSpec.builder().rateHz(60).latencyBound(Duration.ofMillis(100))
            .serviceClass(ServiceClass.HRT).build();

    @TempDir
    Path dir;
    private ZooKeeperFixture zk;
    private CuratorFramework client;
    private final ScriptedLeaf west = new ScriptedLeaf(List.of("w1", "w2"), variable(WEST_VAR, "w1"));
    private final ScriptedLeaf east = new ScriptedLeaf(List.of("e1", "e2"), variable(EAST_VAR, "e2"));
    private final List<Thread> stuck = new ArrayList<>();
    private final ManualScheduler scheduler = new ManualScheduler();

    private static DeclaredVariable variable(String name, String router) {
        return new DeclaredVariable(name, VariableId.ofName(VariableName.of(name)), router, 260, Duration.ofNanos(16_666_667),
                ServiceClass.HRT, "");
    }

    private static Topology borders() {
        return Topology.builder().router("w2", 200_000, MS, "west").router("e1", 200_000, MS, "east")
                .between("w2", "e1", 1_250_000, 2 * MS, Topology.Builder.defaultShares()).build();
    }

    @BeforeEach
    void start() throws Exception {
        zk = new ZooKeeperFixture(dir);
        client = zk.client();
    }

    @AfterEach
    void stop() throws Exception {
        for (Thread t : stuck) {
            t.interrupt();
            t.join(5_000);
        }
        zk.close();
    }

    private ParentBroker parent() throws Exception {
        Map<String, LeafBroker> leaves = Map.of("west", west, "east", east);
        return new ParentBroker(borders(), leaves, ParentBroker.routersOf(leaves), new ParentStore(client, "/parent"),
                scheduler);
    }

    @Test
    void theIntentIsStoredBeforeTheFirstLeafIsCalled() throws Exception {
        ParentBroker parent = parent();
        ParentStore store = new ParentStore(client, "/parent");
        west.beforeSubscribe = () -> {
            try {
                List<ParentIntent> intents = store.intents();
                assertEquals(1, intents.size(), "recorded before the leaf is asked");
                assertEquals(ParentIntent.LegState.CALLING, intents.get(0).legs().get(0).state());
                assertEquals(ParentIntent.LegState.PLANNED, intents.get(0).legs().get(1).state());
                assertEquals(intents.get(0).legs().get(0).key(), west.lastKey, "the call carries the key recorded");
                assertTrue(west.lastKey.matches("parent-[0-9a-f]{16}-" + intents.get(0).id() + "-leg-0"), west.lastKey);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        CrossCloudSubscription s = parent.subscribe(WEST_VAR, "e2", "cc", QOS);
        assertEquals(1, west.calls.get());
        assertEquals(List.of(), store.intents(), "finished: the intent is gone");
        assertEquals(List.of(s.id()), store.load().stream().map(CrossCloudSubscription::id).toList());
    }

    @Test
    void aParentStoppedBetweenLegsIsUndoneOnRestartWithNoOrphanLeg() throws Exception {
        ParentBroker first = parent();
        // the east leaf takes the second leg, then the parent stops before it hears the answer
        CountDownLatch inEast = new CountDownLatch(1);
        east.afterCommit = () -> {
            inEast.countDown();
            parkForever();
        };
        Thread caller = new Thread(() -> {
            try {
                first.subscribe(WEST_VAR, "e2", "cc", QOS);
            } catch (SubscriptionRejectedException | RuntimeException e) {
                // the stopped parent never answers
            }
        });
        stuck.add(caller);
        caller.start();
        assertTrue(inEast.await(10, TimeUnit.SECONDS));
        assertEquals(1, west.held.size(), "the first leg made");
        assertEquals(1, east.held.size(), "the second leg made, its answer never recorded");
        assertTrue(first.reserved("w2", "e1", ServiceClass.HRT) > 0);

        east.afterCommit = () -> { };
        ParentBroker second = parent(); // on the same store: the first one is gone as far as it knows
        assertEquals(Map.of(), west.held, "the leg made is torn down");
        assertEquals(Map.of(), east.held, "the leg whose answer never came is asked again by its key and torn down");
        assertEquals(1, east.made.get(), "the repeat was answered with the first answer, nothing made twice");
        assertEquals(List.of(), second.subscriptions());
        assertEquals(java.util.Set.of(), second.pending());
        assertEquals(0, second.reserved("w2", "e1", ServiceClass.HRT), "no border reservation left behind");
        assertEquals(List.of(), new ParentStore(client, "/parent").intents());

        CrossCloudSubscription again = second.subscribe(WEST_VAR, "e2", "cc", QOS);
        assertTrue(again.id() > 1, "the stopped subscription's id is not reused");
        assertEquals(1, west.held.size());
        assertEquals(1, east.held.size());
    }

    @Test
    void anUnansweredLegIsToldApartFromTheSameLegOfASubscriptionMade() throws Exception {
        ParentBroker first = parent();
        CrossCloudSubscription kept = first.subscribe(WEST_VAR, "e2", "cc", QOS);
        CountDownLatch inWest = new CountDownLatch(1);
        west.afterCommit = () -> {
            inWest.countDown();
            parkForever();
        };
        Thread caller = new Thread(() -> {
            try {
                first.subscribe(WEST_VAR, "e2", "cd", QOS);
            } catch (SubscriptionRejectedException | RuntimeException e) {
                // the stopped parent never answers
            }
        });
        stuck.add(caller);
        caller.start();
        assertTrue(inWest.await(10, TimeUnit.SECONDS));
        assertEquals(2, west.held.size());

        west.afterCommit = () -> { };
        ParentBroker second = parent();
        assertEquals(List.of(kept.id()), second.subscriptions().stream().map(CrossCloudSubscription::id).toList());
        assertEquals(java.util.Set.of(kept.segments().get(0).leafSubscriptionId()), west.held.keySet(),
                "the identical leg of a subscription made stays: it is held");
        assertEquals(java.util.Set.of(kept.segments().get(1).leafSubscriptionId()), east.held.keySet());
    }

    @Test
    void aFailedLegIsUndoneAtOnceAndTheRefusalNamesTheCloud() throws Exception {
        ParentBroker parent = parent();
        east.refuse = "link e1->e2 class HRT: needs 138.2 kbit/s, 0.0 kbit/s free";
        SubscriptionRejectedException e = assertThrows(SubscriptionRejectedException.class,
                () -> parent.subscribe(WEST_VAR, "e2", "cc", QOS));
        assertEquals("cloud east: link e1->e2 class HRT: needs 138.2 kbit/s, 0.0 kbit/s free", e.reason());
        assertEquals(Map.of(), west.held);
        assertEquals(0, parent.reserved("w2", "e1", ServiceClass.HRT));
        assertEquals(List.of(), new ParentStore(client, "/parent").intents());

        east.refuse = null;
        east.lose = true; // the leaf commits, the answer is lost: the parent cannot know the id
        long madeBefore = east.made.get();
        assertThrows(BrokerException.class, () -> parent.subscribe(WEST_VAR, "e2", "cc", QOS));
        assertEquals(Map.of(), west.held);
        assertEquals(Map.of(), east.held, "asked again by its key, the first answer names it; torn down");
        assertEquals(madeBefore + 1, east.made.get(), "made once");
        assertEquals(java.util.Set.of(), parent.pending());
    }

    @Test
    void theLeavesAreCalledOutsideTheLockSoASecondRequestProceeds() throws Exception {
        ParentBroker parent = parent();
        CountDownLatch westBlocked = new CountDownLatch(1);
        CountDownLatch releaseWest = new CountDownLatch(1);
        west.beforeSubscribe = () -> {
            westBlocked.countDown();
            try {
                releaseWest.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        CompletableFuture<CrossCloudSubscription> slow = CompletableFuture.supplyAsync(() -> {
            try {
                return parent.subscribe(WEST_VAR, "w1", "cc", QOS);
            } catch (SubscriptionRejectedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(westBlocked.await(10, TimeUnit.SECONDS));
        // while the west leaf holds the first request, a subscription in the east and reads proceed
        CompletableFuture<CrossCloudSubscription> other = CompletableFuture.supplyAsync(() -> {
            try {
                return parent.subscribe(EAST_VAR, "e1", "cc", QOS);
            } catch (SubscriptionRejectedException e) {
                throw new IllegalStateException(e);
            }
        });
        CrossCloudSubscription east1 = other.get(10, TimeUnit.SECONDS);
        assertEquals(List.of(east1.id()), parent.subscriptions().stream().map(CrossCloudSubscription::id).toList());
        assertTrue(parent.unsubscribe(east1.id()));
        assertFalse(slow.isDone());
        releaseWest.countDown();
        CrossCloudSubscription west1 = slow.get(10, TimeUnit.SECONDS);
        assertNotEquals(east1.id(), west1.id());
        assertEquals(List.of(west1.id()), parent.subscriptions().stream().map(CrossCloudSubscription::id).toList());
    }

    @Test
    void aTeardownLeftUnfinishedIsFinishedOnRestart() throws Exception {
        ParentBroker first = parent();
        CrossCloudSubscription s = first.subscribe(WEST_VAR, "e2", "cc", QOS);
        east.down = true;
        assertThrows(BrokerException.class, () -> first.unsubscribe(s.id()));
        assertEquals(Map.of(), west.held, "the west leg went before the east leaf failed");
        assertEquals(1, east.held.size());

        east.down = false;
        ParentBroker second = parent();
        assertEquals(List.of(), second.subscriptions());
        assertEquals(Map.of(), east.held);
        assertEquals(0, second.reserved("w2", "e1", ServiceClass.HRT));
        assertEquals(List.of(), new ParentStore(client, "/parent").load());
    }

    @Test
    void aTeardownIntentOfASubscriptionGoneAlreadyIsForgotten() throws Exception {
        ParentStore store = new ParentStore(client, "/parent");
        store.update(new ParentIntent(ParentIntent.SCHEMA, 7, ParentIntent.Action.UNSUBSCRIBE, WEST_VAR,
                VariableId.ofName(VariableName.of(WEST_VAR)).value(), 260, "e2", "cc",
                org.gridstat.core.management.QosDocument.of(QOS), List.of(), List.of()));
        ParentBroker parent = parent();
        assertEquals(java.util.Set.of(), parent.pending());
        assertEquals(List.of(), store.intents());
        assertTrue(parent.subscribe(WEST_VAR, "e2", "cc", QOS).id() > 7, "an intent's id is never given again");
    }

    /**
     * A request whose leg call fails is undone while another request for an identical leg has been
     * made at the leaf but not yet recorded: the undo asks the leaf again under the failed request's
     * own key, and tears down only what that key names, never the other request's leg.
     */
    @Test
    void anUndoOfAFailedRequestLeavesAConcurrentIdenticalRequestsLeg() throws Exception {
        ParentBroker parent = parent();
        CountDownLatch bCommitted = new CountDownLatch(1);
        CountDownLatch releaseB = new CountDownLatch(1);
        west.afterCommit = () -> {
            bCommitted.countDown();
            try {
                releaseB.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        CompletableFuture<CrossCloudSubscription> b = CompletableFuture.supplyAsync(() -> {
            try {
                return parent.subscribe(WEST_VAR, "w1", "cc", QOS);
            } catch (SubscriptionRejectedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(bCommitted.await(10, TimeUnit.SECONDS));
        west.afterCommit = () -> { };
        // the second, identical request: its call fails before the leaf commits anything (once)
        java.util.concurrent.atomic.AtomicBoolean failed = new java.util.concurrent.atomic.AtomicBoolean();
        west.beforeSubscribe = () -> {
            if (failed.compareAndSet(false, true)) {
                throw new BrokerException("connection refused", null);
            }
        };
        west.beforeUnsubscribe = () -> {
            releaseB.countDown(); // the first request records its leg and finishes meanwhile
            try {
                b.get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                // judged below
            }
        };
        assertThrows(BrokerException.class, () -> parent.subscribe(WEST_VAR, "w1", "cc", QOS));
        west.beforeUnsubscribe = () -> { };
        CrossCloudSubscription made = b.get(10, TimeUnit.SECONDS);
        assertTrue(west.held.containsKey(made.segments().get(0).leafSubscriptionId()),
                "subscription " + made.id() + " is reported made, but its leaf subscription was torn down by another "
                        + "request's undo");
        assertEquals(java.util.Set.of(made.segments().get(0).leafSubscriptionId()), west.held.keySet(),
                "what the failed request's key made is torn down");
        assertEquals(java.util.Set.of(), parent.pending());
    }

    /**
     * A parent stopped after recording a leg CALLING but before the leaf got the call: on restart
     * the repeat under the leg's key makes it now and the parent tears that down; a leaf
     * subscription it never made, identical in variable, router, link and bound, stays.
     */
    @Test
    void recoveryLeavesALeafSubscriptionTheParentNeverMade() throws Exception {
        BrokerSubscription own = west.subscribe(WEST_VAR, "w1", "cc", QOS, Duration.ZERO, Duration.ZERO,
                "operator-1"); // not the parent's
        ParentBroker first = parent();
        CountDownLatch calling = new CountDownLatch(1);
        west.beforeSubscribe = () -> { // recorded CALLING; the parent stops before its request leaves
            calling.countDown();
            parkForever();
        };
        Thread caller = new Thread(() -> {
            try {
                first.subscribe(WEST_VAR, "w1", "cc", QOS);
            } catch (SubscriptionRejectedException | RuntimeException e) {
                // the stopped parent never answers
            }
        });
        stuck.add(caller);
        caller.start();
        assertTrue(calling.await(10, TimeUnit.SECONDS));
        west.beforeSubscribe = () -> { };

        ParentBroker second = parent(); // restarts on the same store
        assertTrue(west.held.containsKey(own.id()), "the parent's recovery tore down leaf subscription " + own.id()
                + ", which it never made");
        assertEquals(java.util.Set.of(own.id()), west.held.keySet());
        assertEquals(java.util.Set.of(), second.pending());
    }

    /**
     * Beyond the leaf's window of remembered keys the repeat is taken for a new request: the parent
     * tears down what the repeat made and nothing else, so a leg the first call made stays at the
     * leaf (documented in docs/hierarchy.md), rather than the parent guessing which is its own.
     */
    @Test
    void beyondTheLeafsKeyWindowOnlyWhatTheRepeatMadeIsTornDown() throws Exception {
        ParentBroker first = parent();
        CountDownLatch inWest = new CountDownLatch(1);
        west.afterCommit = () -> {
            inWest.countDown();
            parkForever();
        };
        Thread caller = new Thread(() -> {
            try {
                first.subscribe(WEST_VAR, "w1", "cc", QOS);
            } catch (SubscriptionRejectedException | RuntimeException e) {
                // the stopped parent never answers
            }
        });
        stuck.add(caller);
        caller.start();
        assertTrue(inWest.await(10, TimeUnit.SECONDS));
        west.afterCommit = () -> { };
        java.util.Set<Long> firstCall = java.util.Set.copyOf(west.held.keySet());
        west.forgetKeys(); // more than the window of other requests reached the leaf meanwhile

        ParentBroker second = parent();
        assertEquals(firstCall, west.held.keySet(), "the repeat's subscription is torn down, the first call's stays");
        assertEquals(java.util.Set.of(), second.pending());
    }

    /**
     * An undo that fails while the parent runs (a leaf down) is retried with back-off, 1 s
     * doubling up to 60 s, and the border link stays reserved until the undo is done.
     */
    @Test
    void aFailedUndoIsRetriedWithBackOffAndKeepsTheBorderReservedUntilDone() throws Exception {
        ParentBroker parent = parent();
        java.util.concurrent.atomic.AtomicBoolean eastDown = new java.util.concurrent.atomic.AtomicBoolean(true);
        east.beforeSubscribe = () -> { // the relay declared, then the east leaf is lost
            if (eastDown.get()) {
                throw new BrokerException(503, "leaf unreachable");
            }
        };
        assertThrows(BrokerException.class, () -> parent.subscribe(WEST_VAR, "e2", "cc", QOS));
        assertEquals(Map.of(), west.held, "the west leg is torn down at once");
        long id = parent.pending().iterator().next();
        long reserved = parent.reserved("w2", "e1", ServiceClass.HRT);
        assertTrue(reserved > 0, "reserved until the undo is done");
        assertEquals(List.of(Duration.ofSeconds(1)), scheduler.delays);

        for (int i = 0; i < 8; i++) {
            scheduler.advance(scheduler.next()); // the east leaf still down
        }
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L, 32L, 60L, 60L, 60L),
                scheduler.delays.stream().map(Duration::toSeconds).toList(), "back-off doubles and is capped");
        assertEquals(java.util.Set.of(id), parent.pending());
        assertEquals(reserved, parent.reserved("w2", "e1", ServiceClass.HRT));
        assertEquals(1, new ParentStore(client, "/parent").intents().size());

        eastDown.set(false);
        scheduler.advance(Duration.ofSeconds(59));
        assertEquals(java.util.Set.of(id), parent.pending(), "not before its time");
        scheduler.advance(Duration.ofSeconds(1));
        assertEquals(java.util.Set.of(), parent.pending());
        assertEquals(Map.of(), east.held, "the east leg, made by the repeat under its key, torn down");
        assertEquals(0, parent.reserved("w2", "e1", ServiceClass.HRT));
        assertEquals(List.of(), new ParentStore(client, "/parent").intents());
        assertEquals(0, scheduler.tasks.size(), "nothing more to retry");
    }

    /**
     * A parent started on the store of one that stopped half way takes the unfinished intent's
     * border reservation again, and holds it until the undo, retried while the leaf is down, is done.
     */
    @Test
    void aRestartTakesTheReservationOfAnUnfinishedIntentAgainUntilItIsUndone() throws Exception {
        ParentBroker first = parent();
        CountDownLatch inEast = new CountDownLatch(1);
        east.afterCommit = () -> {
            inEast.countDown();
            parkForever();
        };
        Thread caller = new Thread(() -> {
            try {
                first.subscribe(WEST_VAR, "e2", "cc", QOS);
            } catch (SubscriptionRejectedException | RuntimeException e) {
                // the stopped parent never answers
            }
        });
        stuck.add(caller);
        caller.start();
        assertTrue(inEast.await(10, TimeUnit.SECONDS));
        long reserved = first.reserved("w2", "e1", ServiceClass.HRT);
        east.afterCommit = () -> { };
        east.down = true;

        ParentBroker second = parent();
        assertEquals(Map.of(), west.held, "the west leg is torn down");
        assertEquals(1, second.pending().size());
        assertEquals(reserved, second.reserved("w2", "e1", ServiceClass.HRT), "taken again until undone");
        assertEquals(List.of(Duration.ofSeconds(1)), scheduler.delays);

        east.down = false;
        scheduler.advance(Duration.ofSeconds(1));
        assertEquals(java.util.Set.of(), second.pending());
        assertEquals(Map.of(), east.held);
        assertEquals(1, east.made.get(), "the repeat was answered with the first answer");
        assertEquals(0, second.reserved("w2", "e1", ServiceClass.HRT));
        assertEquals(List.of(), new ParentStore(client, "/parent").intents());
    }

    private static void parkForever() {
        try {
            new CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("stopped");
        }
    }

    /** Runs tasks when a test advances its clock. */
    private static final class ManualScheduler implements ParentBroker.Scheduler {
        record Task(long due, long seq, Runnable run) {
        }

        final List<Duration> delays = new ArrayList<>();
        final java.util.PriorityQueue<Task> tasks = new java.util.PriorityQueue<>(
                java.util.Comparator.comparingLong(Task::due).thenComparingLong(Task::seq));
        private long now;
        private long seq;

        @Override
        public synchronized void schedule(Runnable task, Duration delay) {
            delays.add(delay);
            tasks.add(new Task(now + delay.toNanos(), seq++, task));
        }

        /** The time until the next task is due. */
        synchronized Duration next() {
            return Duration.ofNanos(tasks.peek().due() - now);
        }

        void advance(Duration d) {
            long until;
            synchronized (this) {
                until = now + d.toNanos();
            }
            while (true) {
                Task t;
                synchronized (this) {
                    if (tasks.isEmpty() || tasks.peek().due() > until) {
                        now = until;
                        return;
                    }
                    t = tasks.poll();
                    now = t.due();
                }
                t.run().run();
            }
        }
    }

    /**
     * A leaf broker in memory whose calls a test can hold, fail or refuse. Like a leaf's API, it
     * answers a repeat of a request made under an idempotency key with the first answer.
     */
    private static final class ScriptedLeaf implements LeafBroker {
        private final List<String> routers;
        private final List<DeclaredVariable> variables = new ArrayList<>();
        final Map<Long, BrokerSubscription> held = new ConcurrentHashMap<>();
        /** The first answer of each key that made something. */
        private final Map<String, Object> answers = new ConcurrentHashMap<>();
        private final AtomicLong ids = new AtomicLong(100);
        final AtomicLong calls = new AtomicLong();
        /** Subscriptions made (repeats answered from the keys not counted). */
        final AtomicLong made = new AtomicLong();
        volatile String lastKey;
        volatile Runnable beforeSubscribe = () -> { };
        volatile Runnable afterCommit = () -> { };
        volatile Runnable beforeUnsubscribe = () -> { };
        volatile String refuse;
        /** The next answer is lost after the leaf commits. */
        volatile boolean lose;
        volatile boolean down;

        ScriptedLeaf(List<String> routers, DeclaredVariable origin) {
            this.routers = routers;
            variables.add(origin);
        }

        private void reachable() {
            if (down) {
                throw new BrokerException(503, "leaf unreachable");
            }
        }

        /** Forgets every key, as a leaf does the keys older than its last 1,000 changes. */
        void forgetKeys() {
            answers.clear();
        }

        @Override
        public synchronized List<DeclaredVariable> variables() {
            reachable();
            return List.copyOf(variables);
        }

        @Override
        public synchronized DeclaredVariable declare(VariableDeclaration d) {
            reachable();
            DeclaredVariable v = new DeclaredVariable(d.name(), VariableId.ofName(VariableName.of(d.name())), d.router(),
                    d.frameBytes(), d.interval(), d.serviceClass(), d.correlationGroup());
            variables.removeIf(x -> x.name().equals(d.name()) && x.router().equals(d.router()));
            variables.add(v);
            return v;
        }

        @Override
        public BrokerSubscription subscribe(String variable, String subscriberRouter, String subscriberLink, QosSpec qos,
                                            Duration downstreamBudget, Duration minRestDelay, String key)
                throws SubscriptionRejectedException {
            reachable();
            calls.incrementAndGet();
            lastKey = key;
            beforeSubscribe.run();
            BrokerSubscription s;
            Object first = answers.get(key);
            if (first != null) {
                s = (BrokerSubscription) first; // a repeat: the first answer
            } else {
                if (refuse != null) {
                    throw new SubscriptionRejectedException(refuse); // nothing made: not remembered
                }
                synchronized (this) { // the change and its key in one step
                    long id = ids.incrementAndGet();
                    s = new BrokerSubscription(id, variable, subscriberRouter, subscriberLink, qos,
                            List.of(List.of(subscriberRouter)));
                    held.put(id, s);
                    answers.put(key, s);
                    made.incrementAndGet();
                }
                afterCommit.run();
            }
            if (lose) {
                lose = false;
                throw new BrokerException("connection reset before the answer", null);
            }
            return s;
        }

        @Override
        public boolean unsubscribe(long id, String key) {
            reachable();
            beforeUnsubscribe.run();
            synchronized (this) {
                if (answers.containsKey(key)) {
                    return (Boolean) answers.get(key);
                }
                boolean removed = held.remove(id) != null;
                if (removed) {
                    answers.put(key, Boolean.TRUE);
                }
                return removed;
            }
        }

        @Override
        public List<BrokerSubscription> subscriptions() {
            reachable();
            return List.copyOf(held.values());
        }

        @Override
        public List<HopDocument> hops(long id) {
            reachable();
            BrokerSubscription s = held.get(id);
            return List.of(new HopDocument(s.subscriberRouter(), null, 1_000_000));
        }

        @Override
        public List<String> routers() {
            return routers;
        }
    }
}
