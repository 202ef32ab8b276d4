package org.gridstat.broker.hierarchy;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.stream.Collectors;
import org.gridstat.broker.api.ManagementApi;
import org.gridstat.broker.api.ParentRoutes;
import org.gridstat.broker.store.ZooKeeperConnection;
import org.gridstat.broker.topology.Topology;
import org.gridstat.client.BrokerConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A parent broker as a process runs it: ZooKeeper (embedded unless an ensemble is named) for its
 * subscriptions, connections to the leaves, and its API. One replica: a restarted parent resumes
 * from ZooKeeper, and the leaves keep delivering meanwhile.
 */
public final class ParentService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ParentService.class);
    /** Requests served at once; more wait in the pool's queue. */
    static final int WORKERS = 4;
    /** Requests waiting for a worker; beyond, the API answers 503. */
    static final int QUEUED = 64;

    /**
     * @param leaves each cloud's leaf replicas' API addresses
     */
    public record Settings(Topology borders, Map<String, List<URI>> leaves, String zookeeper, Path embeddedData,
                           int embeddedPort, String root, InetSocketAddress apiBind) {
    }

    private final ZooKeeperConnection zk;
    private final ExecutorService worker;
    private final ManagementApi api;
    private final ParentBroker parent;

    private ParentService(ZooKeeperConnection zk, ExecutorService worker, ManagementApi api, ParentBroker parent) {
        this.zk = zk;
        this.worker = worker;
        this.api = api;
        this.parent = parent;
    }

    /**
     * @throws IllegalStateException naming what could not be started
     */
    public static ParentService start(Settings s) {
        ZooKeeperConnection zk = ZooKeeperConnection.open(s.zookeeper(), s.embeddedData(), s.embeddedPort(),
                Duration.ofSeconds(10));
        ExecutorService worker = null;
        try {
            Map<String, LeafBroker> leaves = LeafBroker.over(s.leaves().entrySet().stream().collect(Collectors.toMap(
                    Map.Entry::getKey, e -> BrokerConnection.connect(e.getValue(), Duration.ofSeconds(10), Duration.ofSeconds(15)))));
            ParentBroker parent = new ParentBroker(s.borders(), leaves, ParentBroker.routersOf(leaves),
                    new ParentStore(zk.client(), s.root()));
            // a few requests at once: the parent calls the leaves outside its lock, so one slow leaf holds up only its own
            worker = new java.util.concurrent.ThreadPoolExecutor(WORKERS, WORKERS, 0, java.util.concurrent.TimeUnit.SECONDS,
                    new java.util.concurrent.ArrayBlockingQueue<>(QUEUED), r -> {
                Thread t = new Thread(r, "gridstat-parent-broker");
                t.setDaemon(true);
                return t;
            });
            ManagementApi api = new ManagementApi(s.apiBind(), new ParentRoutes(parent, s.borders(), worker));
            LOG.info("parent broker over clouds {} started: API {}, {} subscription(s) resumed", leaves.keySet(),
                    api.address(), parent.subscriptions().size());
            return new ParentService(zk, worker, api, parent);
        } catch (Exception e) {
            if (worker != null) {
                worker.shutdownNow();
            }
            zk.close();
            throw e instanceof IllegalStateException ise ? ise
                    : new IllegalStateException("parent broker did not start: " + e.getMessage(), e);
        }
    }

    public ParentBroker parent() {
        return parent;
    }

    public InetSocketAddress apiAddress() {
        return api.address();
    }

    @Override
    public void close() {
        api.close();
        worker.shutdown();
        parent.close();
        zk.close();
    }
}
