package org.gridstat.broker.hierarchy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.gridstat.broker.store.ZooKeeperStore;
import org.gridstat.core.management.QosDocument;
import org.gridstat.core.model.VariableId;

/**
 * The parent broker's cross-cloud subscriptions in ZooKeeper, one JSON document each under
 * {@code <root>/subscriptions/<id>}, and its intents, the operations begun and not finished, under
 * {@code <root>/intents/<id>} (layout in {@code docs/broker-state.md}).
 */
public final class ParentStore {
    private static final int SCHEMA = 1;
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final CuratorFramework zk;
    private final String root;

    /** A stored subscription. */
    record Stored(int schema, long id, String variable, long variableId, int frameBytes, String subscriberRouter,
                  String subscriberLink, QosDocument qos, List<CrossCloudSubscription.Segment> segments,
                  List<String> borderLinks) {
    }

    public ParentStore(CuratorFramework zk, String root) throws Exception {
        this.zk = zk;
        this.root = root;
        ZooKeeperStore.ensureFolder(zk, root + "/subscriptions");
        ZooKeeperStore.ensureFolder(zk, root + "/relays");
        ZooKeeperStore.ensureFolder(zk, root + "/intents");
    }

    /**
     * The parent's identity in the leaves' idempotency keys: 16 hex digits, made at random the
     * first time and kept under {@code <root>/identity}, so that a restarted parent repeats its
     * calls under the same keys and no other parent's keys equal its own.
     */
    String identity() throws Exception {
        String path = root + "/identity";
        if (zk.checkExists().forPath(path) == null) {
            try {
                zk.create().forPath(path, String.format("%016x", new java.security.SecureRandom().nextLong())
                        .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            } catch (org.apache.zookeeper.KeeperException.NodeExistsException made) {
                // made meanwhile: that one holds
            }
        }
        String id = new String(zk.getData().forPath(path), java.nio.charset.StandardCharsets.US_ASCII);
        if (!id.matches("[0-9a-f]{16}")) {
            throw new IllegalStateException(path + " holds '" + id + "', not 16 hex digits");
        }
        return id;
    }

    /** The intents left by a parent that stopped before finishing them, by id. */
    List<ParentIntent> intents() throws Exception {
        List<ParentIntent> out = new ArrayList<>();
        String parent = root + "/intents";
        for (String child : zk.getChildren().forPath(parent)) {
            ParentIntent i;
            try {
                i = JSON.readValue(zk.getData().forPath(parent + "/" + child), ParentIntent.class);
            } catch (IOException e) {
                throw new IllegalStateException("unreadable parent intent " + parent + "/" + child + ": " + e.getMessage(), e);
            }
            if (i.schema() != ParentIntent.SCHEMA) {
                throw new IllegalStateException(parent + "/" + child + " has schema " + i.schema() + "; this broker reads "
                        + ParentIntent.SCHEMA);
            }
            out.add(i);
        }
        out.sort(Comparator.comparingLong(ParentIntent::id));
        return out;
    }

    /** Records a subscription's intent and the next id, in one transaction, before any leaf is called. */
    void begin(ParentIntent intent, long nextId) throws Exception {
        byte[] next = java.nio.ByteBuffer.allocate(Long.BYTES).putLong(nextId).array();
        if (zk.checkExists().forPath(root + "/next-id") == null) {
            zk.create().orSetData().forPath(root + "/next-id", next);
        }
        zk.transaction().forOperations(
                zk.transactionOp().create().forPath(root + "/intents/" + intent.id(), JSON.writeValueAsBytes(intent)),
                zk.transactionOp().setData().forPath(root + "/next-id", next));
    }

    /** Records an intent's progress (a leg called, a leg made), or a teardown's start. */
    void update(ParentIntent intent) throws Exception {
        zk.create().orSetData().forPath(root + "/intents/" + intent.id(), JSON.writeValueAsBytes(intent));
    }

    /** The subscription made: stored, and its intent gone, in one transaction. */
    void complete(CrossCloudSubscription s) throws Exception {
        zk.transaction().forOperations(
                zk.transactionOp().create().forPath(root + "/subscriptions/" + s.id(), JSON.writeValueAsBytes(stored(s))),
                zk.transactionOp().delete().forPath(root + "/intents/" + s.id()));
    }

    /** An intent undone or finished with nothing more to record. */
    void forget(long id) throws Exception {
        zk.delete().quietly().forPath(root + "/intents/" + id);
    }

    /** A subscription torn down: it and its teardown intent gone, in one transaction. */
    void removed(long id) throws Exception {
        if (zk.checkExists().forPath(root + "/intents/" + id) == null) {
            remove(id);
            return;
        }
        zk.transaction().forOperations(
                zk.transactionOp().delete().forPath(root + "/subscriptions/" + id),
                zk.transactionOp().delete().forPath(root + "/intents/" + id));
    }

    private static Stored stored(CrossCloudSubscription s) {
        return new Stored(SCHEMA, s.id(), s.variable(), s.variableId().value(), s.frameBytes(), s.subscriberRouter(),
                s.subscriberLink(), QosDocument.of(s.qos()), s.segments(), s.borderLinks());
    }

    /** The next subscription id: above every id ever given, deleted ones included. */
    long nextId() throws Exception {
        if (zk.checkExists().forPath(root + "/next-id") == null) {
            return 1;
        }
        byte[] b = zk.getData().forPath(root + "/next-id");
        return b.length == Long.BYTES ? java.nio.ByteBuffer.wrap(b).getLong() : 1;
    }

    /** The (cloud, variable) pairs the parent declared as relays, as {@code cloud|variable}. */
    List<String> relays() throws Exception {
        List<String> out = new ArrayList<>();
        for (String c : zk.getChildren().forPath(root + "/relays")) {
            out.add(java.net.URLDecoder.decode(c, java.nio.charset.StandardCharsets.UTF_8));
        }
        return out;
    }

    void relay(String cloud, String variable) throws Exception {
        try {
            zk.create().forPath(root + "/relays/" + java.net.URLEncoder.encode(cloud + "|" + variable,
                    java.nio.charset.StandardCharsets.UTF_8));
        } catch (org.apache.zookeeper.KeeperException.NodeExistsException known) {
            // recorded before
        }
    }

    List<CrossCloudSubscription> load() throws Exception {
        List<CrossCloudSubscription> out = new ArrayList<>();
        String parent = root + "/subscriptions";
        for (String child : zk.getChildren().forPath(parent)) {
            Stored s;
            try {
                s = JSON.readValue(zk.getData().forPath(parent + "/" + child), Stored.class);
            } catch (IOException e) {
                throw new IllegalStateException("unreadable parent subscription " + parent + "/" + child + ": " + e.getMessage(), e);
            }
            if (s.schema() != SCHEMA) {
                throw new IllegalStateException(parent + "/" + child + " has schema " + s.schema() + "; this broker reads " + SCHEMA);
            }
            out.add(new CrossCloudSubscription(s.id(), s.variable(), VariableId.of(s.variableId()), s.frameBytes(),
                    s.subscriberRouter(), s.subscriberLink(), s.qos().withoutRate().toSpec(), s.segments(), s.borderLinks()));
        }
        out.sort(Comparator.comparingLong(CrossCloudSubscription::id));
        return out;
    }

    /** Stores a subscription and the next id, in one transaction. */
    void put(CrossCloudSubscription s, long nextId) throws Exception {
        byte[] next = java.nio.ByteBuffer.allocate(Long.BYTES).putLong(nextId).array();
        if (zk.checkExists().forPath(root + "/next-id") == null) {
            zk.create().orSetData().forPath(root + "/next-id", next);
        }
        zk.transaction().forOperations(
                zk.transactionOp().create().forPath(root + "/subscriptions/" + s.id(), JSON.writeValueAsBytes(stored(s))),
                zk.transactionOp().setData().forPath(root + "/next-id", next));
    }

    void remove(long id) throws Exception {
        zk.delete().quietly().forPath(root + "/subscriptions/" + id);
    }
}
