/** What produces and consumes samples in a simulation: publishers, raw datagram sources, subscribers. */
package org.gridstat.sim.traffic;
