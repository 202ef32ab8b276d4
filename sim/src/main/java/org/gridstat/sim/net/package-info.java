/**
 * The simulated network: routers running core's data path on simulated time, links with a wire,
 * a packet queue and faults, and the datagrams they carry.
 */
package org.gridstat.sim.net;
