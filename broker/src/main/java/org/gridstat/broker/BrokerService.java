package org.gridstat.broker;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.gridstat.broker.api.ManagementApi;
import org.gridstat.broker.store.EmbeddedZooKeeper;
import org.gridstat.broker.topology.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker replica as a process runs it: ZooKeeper (an embedded server unless an ensemble is
 * named), the replica in the leader election, and the management API. Closing stops all three.
 */
public final class BrokerService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerService.class);

    /**
     * How to run a replica.
     *
     * @param zookeeper       an ensemble's connect string, or empty for an embedded server
     * @param embeddedData    the embedded server's data folder
     * @param embeddedPort    the embedded server's port on loopback (0: any free)
     * @param root            the ZooKeeper path under which this broker keeps its state
     * @param sessionTimeout  how long ZooKeeper waits before it declares a silent replica dead:
     *                        the bulk of the failover time
     * @param topology        the topology to govern, or {@code null} to use the stored one
     */
    public record Settings(String replicaId, String zookeeper, Path embeddedData, int embeddedPort, String root,
                           Duration sessionTimeout, InetSocketAddress controlBind, InetSocketAddress apiBind,
                           Topology topology) {
        public Settings {
            Objects.requireNonNull(zookeeper, "zookeeper");
            Objects.requireNonNull(root, "root");
            Objects.requireNonNull(sessionTimeout, "session timeout");
            Objects.requireNonNull(controlBind, "control bind");
            Objects.requireNonNull(apiBind, "api bind");
            if (zookeeper.isEmpty()) {
                Objects.requireNonNull(embeddedData, "embedded ZooKeeper data folder");
            }
        }
    }

    private final EmbeddedZooKeeper embedded;
    private final CuratorFramework zk;
    private final BrokerReplica replica;
    private final ManagementApi api;

    private BrokerService(EmbeddedZooKeeper embedded, CuratorFramework zk, BrokerReplica replica, ManagementApi api) {
        this.embedded = embedded;
        this.zk = zk;
        this.replica = replica;
        this.api = api;
    }

    /**
     * Starts a replica; it leads as soon as it wins the election.
     *
     * @throws IllegalStateException naming what could not be started
     */
    public static BrokerService start(Settings s) {
        EmbeddedZooKeeper embedded = null;
        CuratorFramework zk = null;
        BrokerReplica replica = null;
        try {
            String connect = s.zookeeper();
            if (connect.isEmpty()) {
                embedded = EmbeddedZooKeeper.start(s.embeddedData(), s.embeddedPort());
                connect = embedded.connectString();
                LOG.info("embedded ZooKeeper on {} with data in {}", connect, s.embeddedData());
            }
            int timeout = (int) s.sessionTimeout().toMillis();
            zk = CuratorFrameworkFactory.builder().connectString(connect).sessionTimeoutMs(timeout)
                    .connectionTimeoutMs(Math.min(timeout, 5000)).retryPolicy(new ExponentialBackoffRetry(100, 10)).build();
            zk.start();
            if (!zk.blockUntilConnected(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("cannot reach ZooKeeper at " + connect + " within 30 s");
            }
            // bind the API before joining the election, so the leader's advertised address answers
            ManagementApi api = null;
            BrokerReplica r;
            InetSocketAddress apiBind = s.apiBind();
            try (java.net.ServerSocket probe = apiBind.getPort() == 0 ? new java.net.ServerSocket(0, 1, apiBind.getAddress()) : null) {
                if (probe != null) {
                    apiBind = new InetSocketAddress(apiBind.getAddress(), probe.getLocalPort());
                }
            }
            String apiUrl = "http://" + apiBind.getHostString() + ":" + apiBind.getPort();
            r = replica = new BrokerReplica(zk, s.root(), new BrokerReplica.Settings(s.replicaId(), s.controlBind(), apiUrl),
                    s.topology());
            api = new ManagementApi(apiBind, r);
            r.start();
            LOG.info("broker replica {} started: API {}, control {}, ZooKeeper {}{}", s.replicaId(), apiUrl,
                    s.controlBind(), connect, s.root());
            return new BrokerService(embedded, zk, r, api);
        } catch (Exception e) {
            if (replica != null) {
                replica.close();
            }
            if (zk != null) {
                zk.close();
            }
            if (embedded != null) {
                embedded.close();
            }
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw e instanceof IllegalStateException ise ? ise
                    : new IllegalStateException("broker replica " + s.replicaId() + " did not start: " + e.getMessage(), e);
        }
    }

    public BrokerReplica replica() {
        return replica;
    }

    public InetSocketAddress apiAddress() {
        return api.address();
    }

    /** The embedded ZooKeeper's connect string, or empty if an ensemble is used. */
    public String embeddedZooKeeper() {
        return embedded == null ? "" : embedded.connectString();
    }

    @Override
    public void close() {
        api.close();
        replica.close();
        zk.close();
        if (embedded != null) {
            embedded.close();
        }
    }
}
