package org.gridstat.broker.store;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * A connected Curator client, to an ensemble or to an embedded server started for it (the
 * single-machine default). Closing closes both.
 */
public final class ZooKeeperConnection implements AutoCloseable {
    private final EmbeddedZooKeeper embedded;
    private final CuratorFramework client;

    private ZooKeeperConnection(EmbeddedZooKeeper embedded, CuratorFramework client) {
        this.embedded = embedded;
        this.client = client;
    }

    /**
     * Connects within 30 s.
     *
     * @param ensemble       a connect string, or empty to start an embedded server
     * @param embeddedData   the embedded server's data folder
     * @param embeddedPort   its port on loopback (0: any free)
     * @param sessionTimeout how long ZooKeeper keeps a silent client's session (and its ephemeral nodes)
     * @throws IllegalStateException if the server cannot be started or reached
     */
    public static ZooKeeperConnection open(String ensemble, Path embeddedData, int embeddedPort, Duration sessionTimeout) {
        EmbeddedZooKeeper embedded = null;
        CuratorFramework client = null;
        try {
            String connect = ensemble;
            if (connect.isEmpty()) {
                embedded = EmbeddedZooKeeper.start(Objects.requireNonNull(embeddedData, "embedded data folder"), embeddedPort);
                connect = embedded.connectString();
            }
            int timeout = (int) sessionTimeout.toMillis();
            client = CuratorFrameworkFactory.builder().connectString(connect).sessionTimeoutMs(timeout)
                    .connectionTimeoutMs(Math.min(timeout, 5000)).retryPolicy(new ExponentialBackoffRetry(100, 10)).build();
            client.start();
            if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("cannot reach ZooKeeper at " + connect + " within 30 s");
            }
            return new ZooKeeperConnection(embedded, client);
        } catch (Exception e) {
            if (client != null) {
                client.close();
            }
            if (embedded != null) {
                embedded.close();
            }
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw e instanceof IllegalStateException ise ? ise
                    : new IllegalStateException("cannot start ZooKeeper: " + e.getMessage(), e);
        }
    }

    public CuratorFramework client() {
        return client;
    }

    /** The embedded server's connect string, or empty if an ensemble is used. */
    public String embeddedConnectString() {
        return embedded == null ? "" : embedded.connectString();
    }

    @Override
    public void close() {
        client.close();
        if (embedded != null) {
            embedded.close();
        }
    }
}
