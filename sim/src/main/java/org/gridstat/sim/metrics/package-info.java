/** What a simulation measures: each subscription's deliveries, latencies and drops, interval by interval. */
package org.gridstat.sim.metrics;
