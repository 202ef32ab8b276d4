/** What a simulation runs: the topology, variables, subscriptions, sources and a timeline of changes and faults. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package org.gridstat.sim.scenario;
