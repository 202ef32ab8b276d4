/** What a simulation runs: the topology, variables, subscriptions, sources and a timeline of changes and faults. */
package org.gridstat.sim.scenario;
