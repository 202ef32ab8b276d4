/**
 * The published experiments as scenarios built in code, one class per experiment with its variants
 * as parameters and the figures it is compared on: {@link org.gridstat.sim.reproduce.Fragmentation}
 * (EPFL, IP fragmentation under tail drop), {@link org.gridstat.sim.reproduce.Idsrt} (deadline
 * partitioning and EDF), {@link org.gridstat.sim.reproduce.CccTestbed} (the CCC thesis testbed
 * without congestion control); {@link org.gridstat.sim.reproduce.Reproductions} prints their tables
 * beside the published figures (docs/reproductions.md). The same scenarios ship as files in
 * sim/scenarios.
 */
package org.gridstat.sim.reproduce;
