/**
 * Deterministic simulation testing: random scenarios from a seed, each run checked against the
 * simulator's invariants, a failure reported with the seed that replays it.
 */
package org.gridstat.sim.explore;
