/**
 * Shaping at the source: each flow a gateway sends into the network paced by a token bucket at
 * its reservation, waiting in a datagram-aware queue that keeps or drops a sample whole.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.gateway.shaping;
