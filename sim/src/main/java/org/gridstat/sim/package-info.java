/** The simulator's entry points: run a scenario ({@link org.gridstat.sim.Simulation}) and read what it measured. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.2.0")
package org.gridstat.sim;
