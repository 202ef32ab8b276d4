/**
 * A PMU simulator that speaks C37.118: any number of PMUs in any data format, frames on the UTC
 * grid of the configured rate, values that look like a real 50 or 60 Hz network (and are a pure
 * function of time, so a run can be checked frame by frame), served by a
 * {@link org.gridstat.gateway.device.PmuServer}. For demos, tests and benchmarks.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.gateway.pmusim;
