package org.gridstat.broker.store;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;

/** An embedded ZooKeeper in a test's folder, and the clients opened on it (each its own session). */
public final class ZooKeeperFixture implements AutoCloseable {
    private final EmbeddedZooKeeper server;
    private final List<ZooKeeperConnection> clients = new ArrayList<>();

    public ZooKeeperFixture(Path dir) throws Exception {
        this.server = EmbeddedZooKeeper.start(dir, 0);
    }

    public CuratorFramework client() {
        ZooKeeperConnection c = ZooKeeperConnection.open(server.connectString(), null, 0, Duration.ofSeconds(2));
        clients.add(c);
        return c.client();
    }

    /** ZooKeeper's sweep of empty container nodes, now; its deletions are applied before any later write. */
    public void sweepEmptyContainers() throws InterruptedException {
        server.sweepEmptyContainers();
    }

    public String connectString() {
        return server.connectString();
    }

    @Override
    public void close() {
        clients.forEach(ZooKeeperConnection::close);
        server.close();
    }
}
