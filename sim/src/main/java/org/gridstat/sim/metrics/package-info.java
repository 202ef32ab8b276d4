/** What a simulation measures: each subscription's deliveries, latencies and drops, interval by interval. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.sim.metrics;
