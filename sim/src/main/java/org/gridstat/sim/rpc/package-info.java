/**
 * Ratatoskr RPC on the simulated network: the rpc module's endpoints, client and server, driven by
 * the simulator's event loop ({@link org.gridstat.sim.rpc.SimTimers}) and carried as status events
 * of the scenario's variables ({@link org.gridstat.sim.rpc.SimConnection}).
 */
package org.gridstat.sim.rpc;
