package org.gridstat.broker;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.recipes.leader.Participant;
import org.gridstat.broker.control.ControlLimits;
import org.gridstat.broker.store.BrokerState;
import org.gridstat.broker.store.ZooKeeperStore;
import org.gridstat.broker.topology.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One broker replica: it joins the leader election under the store's root; when elected it claims
 * the next epoch, loads the state from ZooKeeper and serves (control channel bound, admissions
 * taken); when it loses leadership, or recording a change fails, it stops serving and rejoins the
 * election. A standby answers with the leader's API address.
 */
public final class BrokerReplica implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerReplica.class);
    private static final long RESUME_RETRY_MILLIS = 1000;

    /** A replica's identity and addresses: its control channel binds only while it leads. */
    public record Settings(String replicaId, InetSocketAddress controlBind, String apiUrl, ControlLimits controlLimits) {
        public Settings(String replicaId, InetSocketAddress controlBind, String apiUrl) {
            this(replicaId, controlBind, apiUrl, ControlLimits.DEFAULT);
        }

        public Settings {
            Objects.requireNonNull(replicaId, "replica id");
            Objects.requireNonNull(controlBind, "control bind");
            Objects.requireNonNull(apiUrl, "api url");
            Objects.requireNonNull(controlLimits, "control limits");
            if (replicaId.isBlank() || replicaId.contains("|")) {
                throw new IllegalArgumentException("replica id must be non-empty and free of '|': '" + replicaId + "'");
            }
        }
    }

    private final CuratorFramework zk;
    private final ZooKeeperStore store;
    private final Settings settings;
    private final Topology topology;
    private final ExecutorService leadership;
    private LeaderLatch latch;
    private volatile QosBroker broker;
    private volatile long lastTakeoverMillis = -1;
    private volatile boolean closed;

    /**
     * @param given the topology file's content, or {@code null} to use the one ZooKeeper holds
     * @throws IllegalStateException if the given topology differs from the stored one, or none exists
     */
    public BrokerReplica(CuratorFramework zk, String root, Settings settings, Topology given) throws Exception {
        this(zk, root, settings, given, Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "gridstat-broker-leadership-" + settings.replicaId());
            t.setDaemon(true);
            return t;
        }));
    }

    /** With the executor that runs the election's callbacks one at a time (tests hold them back). */
    BrokerReplica(CuratorFramework zk, String root, Settings settings, Topology given, ExecutorService leadership)
            throws Exception {
        this.zk = zk;
        this.store = new ZooKeeperStore(zk, root);
        this.settings = settings;
        store.ensureLayout();
        this.topology = store.topology(given);
        this.leadership = leadership;
    }

    /** Joins the election. */
    public synchronized void start() throws Exception {
        latch = newLatch();
        latch.start();
    }

    private LeaderLatch newLatch() {
        LeaderLatch l = new LeaderLatch(zk, store.electionPath(),
                settings.replicaId() + "|" + settings.apiUrl() + "|" + hostPort(settings.controlBind()));
        l.addListener(new LeaderLatchListener() {
            @Override
            public void isLeader() {
                takeOver(l);
            }

            @Override
            public void notLeader() {
                stepDown("lost leadership");
            }
        }, leadership);
        return l;
    }

    /**
     * Serves as the leader {@code elected} made this replica, if it still does: the callback may
     * run after the leadership has already ended (the session expired meanwhile), so the epoch is
     * claimed only together with the election node, and a replica whose latch was replaced or lost
     * the leadership does nothing.
     */
    private void takeOver(LeaderLatch elected) {
        long t0 = System.nanoTime();
        LeaderLatch current;
        synchronized (this) {
            current = closed ? null : latch;
        }
        if (elected != current || !elected.hasLeadership()) {
            LOG.info("broker {} was elected but no longer leads; not taking over", settings.replicaId());
            return;
        }
        try {
            store.ensureLayout();
            int epoch = store.claimEpoch(elected.getOurPath());
            BrokerState state = store.load(topology, epoch);
            java.util.concurrent.atomic.AtomicReference<QosBroker> self = new java.util.concurrent.atomic.AtomicReference<>();
            self.set(broker = new QosBroker(state, settings.controlBind(), settings.controlLimits(), store.journal(epoch),
                    store, failure -> onJournalFailure(self.get(), failure)));
            lastTakeoverMillis = (System.nanoTime() - t0) / 1_000_000;
            LOG.info("broker {} leads (epoch {}): {} variables, {} subscriptions; resumed in {} ms",
                    settings.replicaId(), epoch, state.variables().size(), state.subscriptions().size(), lastTakeoverMillis);
        } catch (ZooKeeperStore.LeadershipLostException lost) {
            LOG.warn("broker {} was elected but {}; standing again", settings.replicaId(), lost.getMessage());
            rejoin("leadership lost before taking over");
        } catch (Exception e) {
            LOG.error("broker {} was elected but cannot resume: {}", settings.replicaId(), e.toString());
            pause(RESUME_RETRY_MILLIS); // let another replica try, and do not spin on a lasting fault
            rejoin("resuming failed");
        }
    }

    /** Only the broker that failed is stopped: a late report must not stop its successor. */
    private void onJournalFailure(QosBroker failed, Throwable failure) {
        try {
            leadership.execute(() -> {
                if (failed != null && broker == failed) {
                    rejoin("recording a change failed: " + failure.getMessage());
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            // the replica is closing; nothing to rejoin
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void stepDown(String why) {
        QosBroker b = broker;
        broker = null;
        if (b != null) {
            if (closed) {
                LOG.info("broker {} stops serving: {}", settings.replicaId(), why);
            } else {
                LOG.warn("broker {} stops serving: {}", settings.replicaId(), why);
            }
            b.close();
        }
    }

    /** Gives up leadership and stands again, so that a healthy replica (or this one, afresh) leads. */
    private void rejoin(String why) {
        stepDown(why);
        synchronized (this) {
            if (closed) {
                return;
            }
            try {
                latch.close(LeaderLatch.CloseMode.SILENT);
                latch = newLatch();
                latch.start();
            } catch (Exception e) {
                LOG.error("broker {} cannot rejoin the election: {}", settings.replicaId(), e.toString());
            }
        }
    }

    /**
     * The serving broker.
     *
     * @throws NotLeaderException on a standby, naming the leader's API if known
     */
    public QosBroker leading() {
        QosBroker b = broker;
        if (b == null) {
            throw new NotLeaderException(settings.replicaId(), leaderApi());
        }
        return b;
    }

    public boolean isLeader() {
        return broker != null;
    }

    /** The leader's management API URL as it advertised it, or empty if none is elected. */
    public String leaderApi() {
        try {
            Participant p = latch.getLeader();
            if (p == null || !p.isLeader()) {
                return "";
            }
            String[] parts = p.getId().split("\\|", -1);
            return parts.length >= 2 ? parts[1] : "";
        } catch (Exception e) {
            return "";
        }
    }

    /** How long the last takeover took from election to serving, ms; -1 before the first. */
    public long lastTakeoverMillis() {
        return lastTakeoverMillis;
    }

    public Topology topology() {
        return topology;
    }

    public ZooKeeperStore store() {
        return store;
    }

    public Settings settings() {
        return settings;
    }

    /** A short status for the management API. */
    public Map<String, Object> status() {
        return Map.of("replica", settings.replicaId(), "leader", isLeader(), "leaderApi", leaderApi(),
                "lastTakeoverMillis", lastTakeoverMillis, "zookeeperRoot", store.root());
    }

    private static String hostPort(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            if (latch != null) {
                try {
                    latch.close(LeaderLatch.CloseMode.SILENT);
                } catch (Exception e) {
                    LOG.warn("closing the leader latch: {}", e.toString());
                }
            }
        }
        leadership.execute(() -> stepDown("closing"));
        leadership.shutdown();
        try {
            leadership.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
