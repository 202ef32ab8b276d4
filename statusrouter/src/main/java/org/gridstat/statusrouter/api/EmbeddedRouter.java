package org.gridstat.statusrouter.api;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.statusrouter.internal.StatusRouterComponent;
import org.gridstat.statusrouter.spi.CongestionControl;

/**
 * A status router run in the caller's process without an OSGi framework: the same component, data
 * plane and control channel as a node's, configured by the same Config Admin properties of
 * {@link RouterConfiguration#PID} (the keys listed in the README). For tools and tests that start
 * several routers in one process; {@link #close} stops it and closes its sockets.
 */
public final class EmbeddedRouter implements StatusRouter, AutoCloseable {
    private final StatusRouterComponent router;

    private EmbeddedRouter(StatusRouterComponent router) {
        this.router = router;
    }

    /**
     * Starts a router: its data plane bound and, with a {@code broker.address}, its control channel
     * connecting. Without congestion control, whatever {@code congestion.control} says.
     *
     * @throws IllegalArgumentException naming every bad key
     */
    public static EmbeddedRouter start(Map<String, ?> properties) {
        return start(properties, null);
    }

    /**
     * Starts a router as {@link #start(Map)} does, with {@code congestion} for its
     * {@code congestion.control} setting (the congestion-control bundle's service, as a framework
     * would give it; {@code null}: none).
     *
     * @throws IllegalArgumentException naming every bad key
     */
    public static EmbeddedRouter start(Map<String, ?> properties, CongestionControl congestion) {
        return new EmbeddedRouter(StatusRouterComponent.start(properties, congestion));
    }

    /**
     * Starts a router as {@link #start(Map, CongestionControl)} does, with {@code kernel} shaping the
     * out-links its {@code kernel.shaping} lines name (the kernel-shaping bundle's service;
     * {@code null}: the router shapes every link).
     */
    public static EmbeddedRouter start(Map<String, ?> properties, CongestionControl congestion,
                                       org.gridstat.statusrouter.spi.KernelShaping kernel) {
        return new EmbeddedRouter(StatusRouterComponent.start(properties, congestion, kernel));
    }

    @Override
    public String nodeId() {
        return router.nodeId();
    }

    @Override
    public InetSocketAddress dataAddress() {
        return router.dataAddress();
    }

    @Override
    public RouterCounters counters() {
        return router.counters();
    }

    @Override
    public void submit(List<FlowCommand> commands) {
        router.submit(commands);
    }

    @Override
    public List<String> outLinks() {
        return router.outLinks();
    }

    @Override
    public List<FlowEntry> flows() {
        return router.flows();
    }

    @Override
    public void close() {
        router.stop();
    }
}
