package org.gridstat.broker;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.gridstat.broker.api.ApiLimits;
import org.gridstat.broker.api.ManagementApi;
import org.gridstat.broker.control.ControlLimits;
import org.gridstat.broker.store.ZooKeeperConnection;
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
     * @param controlLimits   the control channel's heartbeats, hello deadline and connection cap
     * @param apiLimits       the management API's connection cap and request deadline
     */
    public record Settings(String replicaId, String zookeeper, Path embeddedData, int embeddedPort, String root,
                           Duration sessionTimeout, InetSocketAddress controlBind, InetSocketAddress apiBind,
                           Topology topology, ControlLimits controlLimits, ApiLimits apiLimits) {
        /** With the default limits. */
        public Settings(String replicaId, String zookeeper, Path embeddedData, int embeddedPort, String root,
                        Duration sessionTimeout, InetSocketAddress controlBind, InetSocketAddress apiBind, Topology topology) {
            this(replicaId, zookeeper, embeddedData, embeddedPort, root, sessionTimeout, controlBind, apiBind, topology,
                    ControlLimits.DEFAULT, ApiLimits.DEFAULT);
        }

        public Settings {
            Objects.requireNonNull(controlLimits, "control limits");
            Objects.requireNonNull(apiLimits, "API limits");
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

    private final ZooKeeperConnection zk;
    private final BrokerReplica replica;
    private final ManagementApi api;

    private BrokerService(ZooKeeperConnection zk, BrokerReplica replica, ManagementApi api) {
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
        ZooKeeperConnection zk = ZooKeeperConnection.open(s.zookeeper(), s.embeddedData(), s.embeddedPort(),
                s.sessionTimeout());
        BrokerReplica replica = null;
        ManagementApi api = null;
        try {
            // bind the API before joining the election, so the leader's advertised address answers
            InetSocketAddress apiBind = s.apiBind();
            try (java.net.ServerSocket probe = apiBind.getPort() == 0 ? new java.net.ServerSocket(0, 1, apiBind.getAddress()) : null) {
                if (probe != null) {
                    apiBind = new InetSocketAddress(apiBind.getAddress(), probe.getLocalPort());
                }
            }
            String apiUrl = "http://" + apiBind.getHostString() + ":" + apiBind.getPort();
            BrokerReplica r = replica = new BrokerReplica(zk.client(), s.root(),
                    new BrokerReplica.Settings(s.replicaId(), s.controlBind(), apiUrl, s.controlLimits()), s.topology());
            api = new ManagementApi(apiBind, r, s.apiLimits());
            r.start();
            LOG.info("broker replica {} started: API {}, control {}, ZooKeeper {}{}", s.replicaId(), apiUrl,
                    s.controlBind(), s.zookeeper().isEmpty() ? zk.embeddedConnectString() : s.zookeeper(), s.root());
            return new BrokerService(zk, r, api);
        } catch (Exception e) {
            if (api != null) {
                api.close();
            }
            if (replica != null) {
                replica.close();
            }
            zk.close();
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
        return zk.embeddedConnectString();
    }

    @Override
    public void close() {
        api.close();
        replica.close();
        zk.close();
    }
}
