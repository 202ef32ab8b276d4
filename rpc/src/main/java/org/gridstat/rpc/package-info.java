/**
 * Ratatoskr RPC over GridStat: 2WoPS connections (two one-way pub-sub flows) with spatial,
 * temporal and ACK/retry redundancy, and at-most-once calls to actuators with pre- and
 * post-conditions over status variables.
 */
package org.gridstat.rpc;
