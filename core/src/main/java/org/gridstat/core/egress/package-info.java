/**
 * The data path's duty cycle: the agent that decides when each link's scheduler runs, the pump
 * that moves what it releases to a transmitter, and the two interfaces (transmitter, wake-up
 * service) that a router's sockets and the simulator's links implement.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.core.egress;
