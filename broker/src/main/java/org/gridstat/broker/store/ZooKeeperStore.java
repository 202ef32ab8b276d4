package org.gridstat.broker.store;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.catalog.PublishedVariable;
import org.gridstat.broker.control.RouterPresence;
import org.gridstat.broker.topology.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's state in ZooKeeper, under one root (layout in {@code docs/broker-state.md}):
 * {@code topology}, {@code variables/<id>}, {@code subscriptions/<id>} (with paths and flow ids),
 * ephemeral {@code routers/<id>} for the routers connected to the leader, {@code election} for the
 * replicas' leader latch, {@code epoch}, whose version fences out a deposed leader, and
 * {@code requests/key-<key>} for the requests remembered by idempotency key, and
 * {@code journal}, whose version numbers the changes and whose data is the next subscription and
 * flow ids:
 * every change is one transaction that checks the epoch its leader claimed and sets the journal at
 * the version that follows the previous change, so a change retried after a lost connection, or
 * overtaken by a later one, fails instead of being applied twice or out of order.
 */
public final class ZooKeeperStore implements RouterPresence {
    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperStore.class);

    private final CuratorFramework zk;
    private final String root;

    public ZooKeeperStore(CuratorFramework zk, String root) {
        if (!root.startsWith("/") || root.endsWith("/") && root.length() > 1) {
            throw new IllegalArgumentException("ZooKeeper root must be an absolute path without a trailing '/': " + root);
        }
        this.zk = zk;
        this.root = root;
    }

    public String root() {
        return root;
    }

    public String electionPath() {
        return root + "/election";
    }

    /**
     * Creates the layout's folders where missing. Run again at each takeover: a store written by a
     * release that made its folders as containers may have lost an empty one to ZooKeeper's sweep.
     */
    public void ensureLayout() throws Exception {
        for (String p : List.of("variables", "subscriptions", "routers", "election", "requests")) {
            ensureFolder(zk, root + "/" + p);
        }
        for (String node : List.of("epoch", "journal")) {
            if (zk.checkExists().forPath(root + "/" + node) == null) {
                try {
                    zk.create().forPath(root + "/" + node, new byte[0]);
                } catch (KeeperException.NodeExistsException raced) {
                    // another replica created it first
                }
            }
        }
    }

    /**
     * Creates a folder, and its parents, as persistent nodes where missing; never as containers,
     * which ZooKeeper deletes once their last child is gone.
     */
    public static void ensureFolder(CuratorFramework zk, String path) throws Exception {
        if (zk.checkExists().forPath(path) == null) {
            try {
                zk.create().creatingParentsIfNeeded().forPath(path);
            } catch (KeeperException.NodeExistsException raced) {
                // another replica created it first
            }
        }
    }

    /** The stored topology's text, if one was stored. */
    public Optional<String> topologyText() throws Exception {
        if (zk.checkExists().forPath(root + "/topology") == null) {
            return Optional.empty();
        }
        return Optional.of(new String(zk.getData().forPath(root + "/topology"), StandardCharsets.UTF_8));
    }

    /**
     * The topology to govern: the stored one, or {@code given} stored now if none is. A given
     * topology that differs from the stored one is refused, so two replicas never govern
     * different networks.
     *
     * @throws IllegalStateException if neither exists or they differ
     */
    public Topology topology(Topology given) throws Exception {
        Optional<String> stored = topologyText();
        if (stored.isEmpty()) {
            if (given == null) {
                throw new IllegalStateException("ZooKeeper holds no topology under " + root + " and none was given");
            }
            try {
                zk.create().forPath(root + "/topology", given.toText().getBytes(StandardCharsets.UTF_8));
                return given;
            } catch (KeeperException.NodeExistsException raced) {
                return topology(given);
            }
        }
        Topology t = Topology.parse(stored.get(), "ZooKeeper " + root + "/topology");
        if (given != null && !given.toText().equals(stored.get())) {
            throw new IllegalStateException("the topology given differs from the one ZooKeeper holds under " + root
                    + "; start without a topology file to use the stored one, or use another root");
        }
        return t;
    }

    /**
     * Claims the next leadership epoch; changes recorded under it fail once another replica has
     * claimed a later one.
     */
    public int claimEpoch() throws Exception {
        Stat stat = zk.setData().forPath(root + "/epoch", new byte[0]);
        return stat.getVersion();
    }

    /**
     * Claims the next epoch only while {@code electionNode} (the claimant's node in the leader
     * election) exists, in one transaction: a replica whose leadership ended before it got round
     * to claiming (its session expired, its node was removed) cannot fence out the leader elected
     * after it.
     *
     * @throws LeadershipLostException if the node is gone; nothing was claimed
     */
    public int claimEpoch(String electionNode) throws Exception {
        if (electionNode == null) {
            throw new LeadershipLostException("this replica has no node in the election");
        }
        try {
            List<CuratorTransactionResult> results = zk.transaction().forOperations(
                    zk.transactionOp().check().forPath(electionNode),
                    zk.transactionOp().setData().forPath(root + "/epoch", new byte[0]));
            return results.get(1).getResultStat().getVersion();
        } catch (KeeperException.NoNodeException e) {
            if (zk.checkExists().forPath(root + "/epoch") == null) {
                throw e;
            }
            throw new LeadershipLostException("its election node " + electionNode + " is gone");
        }
    }

    /** The leadership a claim relied on has ended. */
    public static final class LeadershipLostException extends Exception {
        public LeadershipLostException(String message) {
            super("leadership lost before the epoch was claimed: " + message);
        }
    }

    /** Reads everything a leader resuming in {@code epoch} needs. */
    public BrokerState load(Topology topology, int epoch) throws Exception {
        List<PublishedVariable> variables = new ArrayList<>();
        for (byte[] d : children("variables")) {
            variables.add(StateJson.decodeVariable(d));
        }
        List<AdmittedSubscription> subscriptions = new ArrayList<>();
        for (byte[] d : children("subscriptions")) {
            subscriptions.add(StateJson.decodeSubscription(d));
        }
        subscriptions.sort(Comparator.comparingLong(AdmittedSubscription::id));
        byte[] journal = zk.getData().forPath(root + "/journal");
        java.nio.ByteBuffer counters = java.nio.ByteBuffer.wrap(journal);
        // 8 bytes: written before the flow-id counter was stored
        long next = journal.length >= Long.BYTES ? counters.getLong() : 1;
        long nextFlow = journal.length >= 2 * Long.BYTES ? counters.getLong() : 1;
        return new BrokerState(topology, variables, subscriptions, epoch, Math.max(1, next), Math.max(1, nextFlow),
                rememberedRequests());
    }

    /** The requests remembered by key, oldest first (by the transaction that created each). */
    private List<RememberedRequest> rememberedRequests() throws Exception {
        String parent = root + "/requests";
        List<Map.Entry<Long, RememberedRequest>> found = new ArrayList<>();
        for (String child : zk.getChildren().forPath(parent)) {
            Stat stat = new Stat();
            byte[] d = zk.getData().storingStatIn(stat).forPath(parent + "/" + child);
            found.add(Map.entry(stat.getCzxid(), StateJson.decodeRequest(d)));
        }
        found.sort(Map.Entry.comparingByKey());
        return found.stream().map(Map.Entry::getValue).toList();
    }

    private List<byte[]> children(String folder) throws Exception {
        List<byte[]> out = new ArrayList<>();
        String parent = root + "/" + folder;
        for (String child : zk.getChildren().forPath(parent)) {
            out.add(zk.getData().forPath(parent + "/" + child));
        }
        return out;
    }

    /**
     * A journal that records changes under a claimed epoch, each as one transaction, continuing
     * from the journal's current version. Its {@code record} must be called in the changes' order.
     */
    public StateJournal journal(int epoch) throws Exception {
        java.util.concurrent.atomic.AtomicInteger version = new java.util.concurrent.atomic.AtomicInteger(
                zk.checkExists().forPath(root + "/journal").getVersion());
        return change -> commit(epoch, version.getAndIncrement(), change);
    }

    private CompletableFuture<Void> commit(int epoch, int journalVersion, StateChange change) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        try {
            List<CuratorOp> ops = new ArrayList<>();
            ops.add(zk.transactionOp().check().withVersion(epoch).forPath(root + "/epoch"));
            ops.add(zk.transactionOp().setData().withVersion(journalVersion).forPath(root + "/journal",
                    java.nio.ByteBuffer.allocate(2 * Long.BYTES).putLong(change.nextSubscriptionId())
                            .putLong(change.nextFlowId()).array()));
            if (change.variable() != null) {
                ops.add(zk.transactionOp().create().forPath(path("variables", change.variable().id()),
                        StateJson.encode(change.variable())));
            }
            AdmittedSubscription s = change.putSubscription();
            if (s != null) {
                String p = path("subscriptions", s.id());
                ops.add(change.newSubscription() ? zk.transactionOp().create().forPath(p, StateJson.encode(s))
                        : zk.transactionOp().setData().forPath(p, StateJson.encode(s)));
            }
            if (change.removedSubscription() != 0) {
                ops.add(zk.transactionOp().delete().forPath(path("subscriptions", change.removedSubscription())));
            }
            if (change.remembered() != null) {
                ops.add(zk.transactionOp().create().forPath(requestPath(change.remembered().key()),
                        StateJson.encode(change.remembered())));
            }
            for (String key : change.forgottenKeys()) {
                ops.add(zk.transactionOp().delete().forPath(requestPath(key)));
            }
            zk.transaction().inBackground((client, event) -> {
                if (event.getResultCode() == KeeperException.Code.OK.intValue()) {
                    done.complete(null);
                } else {
                    done.completeExceptionally(failure(event.getResultCode(), event.getOpResults()));
                }
            }).forOperations(ops);
        } catch (Exception e) {
            done.completeExceptionally(e);
        }
        return done;
    }

    private static Exception failure(int code, List<CuratorTransactionResult> results) {
        String where = "";
        boolean fenced = false;
        if (results != null) {
            for (CuratorTransactionResult r : results) {
                if (r.getError() != 0 && r.getError() != KeeperException.Code.RUNTIMEINCONSISTENCY.intValue()) {
                    where = " at " + r.getForPath() + " (" + KeeperException.Code.get(r.getError()) + ")";
                    if (r.getForPath().endsWith("/epoch")) {
                        where = ": another replica has claimed leadership";
                        fenced = true;
                    } else if (r.getForPath().endsWith("/journal")) {
                        where = ": the journal moved on (a change retried or overtaken after a lost connection)";
                    }
                    break;
                }
            }
        }
        String message = "ZooKeeper transaction failed" + where + ", " + KeeperException.Code.get(code);
        return fenced ? new FencedWriteException(message) : new IllegalStateException(message);
    }

    /** A key's node: prefixed, so that keys such as "." make valid node names. */
    private String requestPath(String key) {
        return root + "/requests/key-" + key;
    }

    private String path(String folder, long id) {
        return root + "/" + folder + "/" + id;
    }

    @Override
    public void connected(String router, String peer) {
        String p = root + "/routers/" + URLEncoder.encode(router, StandardCharsets.UTF_8);
        byte[] data = StateJson.write(Map.of("router", router, "peer", peer, "since", System.currentTimeMillis()));
        try {
            // a crashed leader's node lingers until its session expires: replace it
            zk.delete().quietly().inBackground().forPath(p);
            zk.create().withMode(CreateMode.EPHEMERAL).inBackground((c, e) -> {
                if (e.getResultCode() != 0) {
                    LOG.warn("cannot register router {} at {}: {}", router, p, KeeperException.Code.get(e.getResultCode()));
                }
            }).forPath(p, data);
        } catch (Exception e) {
            LOG.warn("cannot register router {}: {}", router, e.toString());
        }
    }

    /** Removes the router's node if this session owns it: a deposed leader must not remove its successor's. */
    @Override
    public void disconnected(String router) {
        String p = root + "/routers/" + URLEncoder.encode(router, StandardCharsets.UTF_8);
        try {
            long session = zk.getZookeeperClient().getZooKeeper().getSessionId();
            zk.checkExists().inBackground((c, e) -> {
                Stat s = e.getStat();
                if (s != null && s.getEphemeralOwner() == session) {
                    c.delete().withVersion(s.getVersion()).inBackground().forPath(p);
                }
            }).forPath(p);
        } catch (Exception e) {
            LOG.warn("cannot unregister router {}: {}", router, e.toString());
        }
    }

    /** The routers registered as connected to the leader. */
    public List<String> registeredRouters() throws Exception {
        List<String> out = new ArrayList<>();
        for (String c : zk.getChildren().forPath(root + "/routers")) {
            out.add(URLDecoder.decode(c, StandardCharsets.UTF_8));
        }
        out.sort(null);
        return out;
    }
}
