/**
 * Deterministic simulation testing: random scenarios from a seed, each run checked against the
 * simulator's invariants, a failure reported with the seed that replays it.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.sim.explore;
