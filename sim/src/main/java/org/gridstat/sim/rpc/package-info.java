/**
 * Ratatoskr RPC on the simulated network: the rpc module's endpoints, client and server, driven by
 * the simulator's event loop ({@link org.gridstat.sim.rpc.SimTimers}), carried as status events of
 * the scenario's variables ({@link org.gridstat.sim.rpc.SimConnection}), and an operator making
 * calls one after another ({@link org.gridstat.sim.rpc.SequentialCaller}).
 */
package org.gridstat.sim.rpc;
