/**
 * Split-and-aggregate ingest: many low-rate meters, each on its own TCP connection in the compact
 * meter format ({@link org.gridstat.gateway.aggregate.MeterFormat}, docs/meter-format.md),
 * terminated at the gateway ({@link org.gridstat.gateway.aggregate.MeterServer}) and carried
 * upstream as one aggregated status variable per region and interval
 * ({@link org.gridstat.gateway.aggregate.RegionAggregator},
 * {@link org.gridstat.gateway.aggregate.AggregatePayload},
 * {@link org.gridstat.gateway.aggregate.PublishingSink}). The decoder and the aggregator are pure
 * and run on the caller's clocks; the server bounds every connection's memory and pushes back on
 * fast meters through TCP instead of buffering them.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.gateway.aggregate;
