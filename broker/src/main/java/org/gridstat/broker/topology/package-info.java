/** The network a broker governs: routers, directed links with bandwidth, delay and class shares. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.broker.topology;
