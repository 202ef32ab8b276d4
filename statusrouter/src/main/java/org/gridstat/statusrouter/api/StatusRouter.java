package org.gridstat.statusrouter.api;

import java.net.InetSocketAddress;
import java.util.List;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;

/** A running status router. Registered as a service while the router forwards. */
public interface StatusRouter {
    /** The node's configured identifier. */
    String nodeId();

    /** The address the data plane is bound to (the actual port if port 0 was configured). */
    InetSocketAddress dataAddress();

    /** A snapshot of the data-path counters; cheap, callable from any thread while forwarding. */
    RouterCounters counters();

    /**
     * Queues flow changes (install, modify, remove), applied in order on the data-path thread.
     * Commands are idempotent by version; out-links are referred to by their index in
     * {@link #outLinks()}.
     */
    void submit(List<FlowCommand> commands);

    /** The out-links' names, in index order. */
    List<String> outLinks();

    /** The flows in force, as last applied. */
    List<FlowEntry> flows();
}
