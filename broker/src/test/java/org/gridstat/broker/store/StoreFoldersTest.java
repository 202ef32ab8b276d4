package org.gridstat.broker.store;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Path;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.gridstat.broker.hierarchy.ParentStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker's folders must outlive their last child: ZooKeeper deletes an empty container node at
 * its next sweep (every minute by default), and a broker whose subscriptions folder vanished after
 * the last teardown could record nothing more, nor could the replica taking over from it.
 */
class StoreFoldersTest {
    @TempDir
    Path dir;

    @Test
    void theBrokersFoldersOutliveTheirLastChild() throws Exception {
        try (ZooKeeperFixture zk = new ZooKeeperFixture(dir)) {
            CuratorFramework client = zk.client();
            new ZooKeeperStore(client, "/gridstat").ensureLayout();
            assertFoldersSurviveEmptying(zk, client, "/gridstat",
                    List.of("variables", "subscriptions", "routers", "election", "requests"));
        }
    }

    @Test
    void theParentsFoldersOutliveTheirLastChild() throws Exception {
        try (ZooKeeperFixture zk = new ZooKeeperFixture(dir)) {
            CuratorFramework client = zk.client();
            new ParentStore(client, "/parent");
            assertFoldersSurviveEmptying(zk, client, "/parent", List.of("subscriptions", "relays", "intents"));
        }
    }

    private static void assertFoldersSurviveEmptying(ZooKeeperFixture zk, CuratorFramework client, String root,
                                                     List<String> folders) throws Exception {
        for (String f : folders) {
            client.create().forPath(root + "/" + f + "/child");
            client.delete().forPath(root + "/" + f + "/child");
        }
        zk.sweepEmptyContainers();
        client.create().forPath("/after-the-sweep"); // the sweep's deletions, if any, are applied before this write
        for (String f : folders) {
            assertNotNull(client.checkExists().forPath(root + "/" + f), root + "/" + f + " was deleted once empty");
        }
    }
}
