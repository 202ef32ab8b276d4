/**
 * Queues of IP packets in front of a wire, where a datagram larger than the MTU travels as several
 * fragments: the simulator's links and the gateway's outbound queues.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.core.queue;
