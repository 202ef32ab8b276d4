/** 2WoPS: a connection as two one-way pub-sub flows, each side publishing one variable and subscribing to the other's; spatial, temporal and ACK/retry redundancy per send. Pure logic on the caller's thread and timers. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.rpc.transport;
