package org.gridstat.statusrouter.internal;

import java.net.InetSocketAddress;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A router's data plane with the out-links of its own configuration and those its broker gave.
 * A change of the broker's links restarts the data plane on the ports it had bound (its links and
 * the sockets of their pumps are fixed for its life): events queued at that moment are lost, the
 * configured flows come back at once and the broker's with the resynchronisation that follows its
 * links. The same links again change nothing.
 */
final class RouterPlane implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RouterPlane.class);

    private final RouterSettings settings;
    private volatile DataPlane current;
    private List<OutLinkConfig> brokerLinks = List.of();

    /** Starts the data plane with the links of {@code settings}. */
    RouterPlane(RouterSettings settings) {
        this.settings = settings;
        this.current = DataPlane.start(settings);
    }

    DataPlane current() {
        return current;
    }

    /** The names of the links the router's own configuration gives it. */
    List<String> ownLinks() {
        return settings.links.stream().map(l -> l.name).toList();
    }

    /**
     * Restarts the data plane with the configured links followed by {@code links}. If it cannot
     * start with them, it starts again with the broker links it had.
     *
     * @throws IllegalStateException why the new links were not applied
     */
    synchronized DataPlane relink(List<OutLinkConfig> links) {
        DataPlane old = current;
        InetSocketAddress data = old.localAddress();
        InetSocketAddress priority = old.priorityAddress();
        old.close();
        try {
            current = DataPlane.start(settings.withBrokerLinks(links).boundAt(data, priority));
            brokerLinks = List.copyOf(links);
            LOG.info("router {}: out-links now {}", settings.nodeId, current.outLinks());
            return current;
        } catch (RuntimeException e) {
            LOG.error("router {}: cannot run the broker's out-links ({}); restarting with the previous ones",
                    settings.nodeId, e.getMessage());
            current = DataPlane.start(settings.withBrokerLinks(brokerLinks).boundAt(data, priority));
            throw new IllegalStateException("out-links not applied: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        current.close();
    }
}
