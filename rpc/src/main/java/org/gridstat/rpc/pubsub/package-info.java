/**
 * Ratatoskr RPC on real status routers: the thread that runs the protocol ({@link
 * org.gridstat.rpc.pubsub.RpcAgent}), a 2WoPS connection bound to client publications and a
 * subscriber ({@link org.gridstat.rpc.pubsub.PubSubConnection}), live status values for
 * conditions ({@link org.gridstat.rpc.pubsub.StatusFeed}), and the small API an application
 * serves and calls actuators with ({@link org.gridstat.rpc.pubsub.RatatoskrServer},
 * {@link org.gridstat.rpc.pubsub.RatatoskrClient}).
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.rpc.pubsub;
