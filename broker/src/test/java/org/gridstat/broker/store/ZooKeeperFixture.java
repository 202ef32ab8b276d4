package org.gridstat.broker.store;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/** An embedded ZooKeeper in a test's folder, and the Curator clients opened on it. */
public final class ZooKeeperFixture implements AutoCloseable {
    private final EmbeddedZooKeeper server;
    private final List<CuratorFramework> clients = new ArrayList<>();

    public ZooKeeperFixture(Path dir) throws Exception {
        this.server = EmbeddedZooKeeper.start(dir, 0);
    }

    public CuratorFramework client() throws InterruptedException {
        CuratorFramework c = CuratorFrameworkFactory.builder().connectString(server.connectString())
                .sessionTimeoutMs(2000).connectionTimeoutMs(2000).retryPolicy(new ExponentialBackoffRetry(50, 5)).build();
        c.start();
        if (!c.blockUntilConnected(10, java.util.concurrent.TimeUnit.SECONDS)) {
            throw new IllegalStateException("no connection to the embedded ZooKeeper");
        }
        clients.add(c);
        return c;
    }

    public String connectString() {
        return server.connectString();
    }

    @Override
    public void close() {
        clients.forEach(CuratorFramework::close);
        server.close();
    }
}
