package org.gridstat.broker.store;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * A single ZooKeeper server inside the broker's process, listening on loopback: the default for
 * one machine. Its data directory survives restarts, so the broker's state does too. A real
 * deployment points the brokers at an ensemble instead.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {
    /** Ticks of 500 ms allow session timeouts from 1 s to 10 s, short enough for a quick failover. */
    public static final int TICK_MILLIS = 500;

    private final ZooKeeperServer server;
    private final ServerCnxnFactory factory;

    private EmbeddedZooKeeper(ZooKeeperServer server, ServerCnxnFactory factory) {
        this.server = server;
        this.factory = factory;
    }

    /**
     * Starts a server on loopback.
     *
     * @param port 0 for any free port
     */
    public static EmbeddedZooKeeper start(Path dataDir, int port) throws IOException {
        Files.createDirectories(dataDir);
        ZooKeeperServer server = new ZooKeeperServer(dataDir.resolve("snapshots").toFile(),
                dataDir.resolve("log").toFile(), TICK_MILLIS);
        ServerCnxnFactory factory = ServerCnxnFactory.createFactory(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
        try {
            factory.startup(server);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            factory.shutdown();
            server.shutdown();
            throw new IOException("interrupted while starting ZooKeeper", e);
        } catch (IOException | RuntimeException e) {
            factory.shutdown();
            server.shutdown();
            throw e;
        }
        return new EmbeddedZooKeeper(server, factory);
    }

    /** The address clients connect to, {@code 127.0.0.1:port}. */
    public String connectString() {
        return "127.0.0.1:" + factory.getLocalPort();
    }

    @Override
    public void close() {
        factory.shutdown();
        server.shutdown();
    }
}
