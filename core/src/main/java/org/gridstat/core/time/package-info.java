/** Clocks: the system clock for live nodes and a manual clock for tests and the simulator. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.core.time;
