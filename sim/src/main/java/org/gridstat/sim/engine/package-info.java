/** The discrete-event engine: simulated time, actions ordered by time then by when they were scheduled. */
package org.gridstat.sim.engine;
