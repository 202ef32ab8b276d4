package org.gridstat.statusrouter.api;

import java.net.InetSocketAddress;

/** A running status router. Registered as a service while the router forwards. */
public interface StatusRouter {
    /** The node's configured identifier. */
    String nodeId();

    /** The address the data plane is bound to (the actual port if port 0 was configured). */
    InetSocketAddress dataAddress();

    /** A snapshot of the data-path counters; cheap, callable from any thread while forwarding. */
    RouterCounters counters();
}
