package org.gridstat.broker;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
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
     * @param advertisedApi   the API's URL this replica gives clients as the leader's while it leads
     *                        ({@code http://host:port}), or empty for {@link #advertisedApiOf the default}
     */
    public record Settings(String replicaId, String zookeeper, Path embeddedData, int embeddedPort, String root,
                           Duration sessionTimeout, InetSocketAddress controlBind, InetSocketAddress apiBind,
                           Topology topology, ControlLimits controlLimits, ApiLimits apiLimits, String advertisedApi) {
        /** With the default limits. */
        public Settings(String replicaId, String zookeeper, Path embeddedData, int embeddedPort, String root,
                        Duration sessionTimeout, InetSocketAddress controlBind, InetSocketAddress apiBind, Topology topology) {
            this(replicaId, zookeeper, embeddedData, embeddedPort, root, sessionTimeout, controlBind, apiBind, topology,
                    ControlLimits.DEFAULT, ApiLimits.DEFAULT);
        }

        /** Advertising the default API address. */
        public Settings(String replicaId, String zookeeper, Path embeddedData, int embeddedPort, String root,
                        Duration sessionTimeout, InetSocketAddress controlBind, InetSocketAddress apiBind, Topology topology,
                        ControlLimits controlLimits, ApiLimits apiLimits) {
            this(replicaId, zookeeper, embeddedData, embeddedPort, root, sessionTimeout, controlBind, apiBind, topology,
                    controlLimits, apiLimits, "");
        }

        public Settings {
            Objects.requireNonNull(advertisedApi, "advertised API (empty: the default)");
            if (!advertisedApi.isEmpty()) {
                checkAdvertised(advertisedApi);
            }
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
            String apiUrl = s.advertisedApi().isEmpty() ? advertisedApiOf(apiBind) : s.advertisedApi();
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

    /**
     * The API URL a replica bound to {@code bind} gives clients by default: {@code http://} the bound
     * address and port, unless the address is a wildcard (0.0.0.0, ::), which no client can connect
     * to; then the host's name if it resolves, else the loopback address (a client on this host).
     */
    public static String advertisedApiOf(InetSocketAddress bind) {
        InetAddress a = bind.getAddress();
        String host;
        if (a != null && a.isAnyLocalAddress()) {
            host = hostName();
        } else {
            host = bind.getHostString();
        }
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + bind.getPort();
    }

    private static String hostName() {
        try {
            String name = InetAddress.getLocalHost().getHostName();
            InetAddress.getByName(name); // the name clients are given must resolve, at least here
            return name;
        } catch (java.net.UnknownHostException | SecurityException e) {
            return InetAddress.getLoopbackAddress().getHostAddress();
        }
    }

    /** An advertised API URL a client can send a request to: http, a host that is not a wildcard, a port, no path. */
    static void checkAdvertised(String url) {
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("advertised API address is not a URL: " + url);
        }
        String host = u.getHost();
        String bare = host == null ? "" : host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        boolean wildcard;
        try {
            // an address literal only: a name is not looked up here
            wildcard = (bare.matches("\\d+\\.\\d+\\.\\d+\\.\\d+") || bare.contains(":"))
                    && InetAddress.getByName(bare).isAnyLocalAddress();
        } catch (java.net.UnknownHostException e) {
            wildcard = false;
        }
        if (!"http".equals(u.getScheme()) || host == null || u.getPort() <= 0 || u.getPort() > 65_535 || wildcard
                || (u.getRawPath() != null && !u.getRawPath().isEmpty() && !u.getRawPath().equals("/"))
                || u.getRawQuery() != null || u.getRawFragment() != null || u.getRawUserInfo() != null) {
            throw new IllegalArgumentException("advertised API address must be http://host:port with a host clients can"
                    + " reach (not a wildcard such as 0.0.0.0) and a port from 1 to 65535, got " + url);
        }
    }

    public BrokerReplica replica() {
        return replica;
    }

    /** The API URL this replica gives clients as the leader's while it leads. */
    public String advertisedApi() {
        return replica.settings().apiUrl();
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
