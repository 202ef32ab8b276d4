package org.gridstat.broker.store;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.zookeeper.server.ContainerManager;
import org.apache.zookeeper.server.RequestProcessor;
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

    private final Server server;
    private final ServerCnxnFactory factory;
    /** Deletes empty container nodes, as every ZooKeeper server started the usual way does. */
    private final ContainerManager containers;

    private EmbeddedZooKeeper(Server server, ServerCnxnFactory factory) {
        this.server = server;
        this.factory = factory;
        this.containers = new ContainerManager(server.getZKDatabase(), server.firstProcessor(),
                Integer.getInteger("znode.container.checkIntervalMs", 60_000),
                Integer.getInteger("znode.container.maxPerMinute", 10_000),
                Long.getLong("znode.container.maxNeverUsedIntervalMs", 0));
        containers.start();
    }

    /** A server whose request pipeline the container manager can post its deletions to. */
    private static final class Server extends ZooKeeperServer {
        Server(java.io.File snapshots, java.io.File log, int tickMillis) throws IOException {
            super(snapshots, log, tickMillis);
        }

        RequestProcessor firstProcessor() {
            return firstProcessor;
        }
    }

    /**
     * Starts a server on loopback.
     *
     * @param port 0 for any free port
     */
    public static EmbeddedZooKeeper start(Path dataDir, int port) throws IOException {
        Files.createDirectories(dataDir);
        Server server = new Server(dataDir.resolve("snapshots").toFile(),
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

    /** Runs the container manager's sweep now rather than at its next interval. */
    void sweepEmptyContainers() throws InterruptedException {
        containers.checkContainers();
    }

    @Override
    public void close() {
        containers.stop();
        factory.shutdown();
        server.shutdown();
    }
}
