/**
 * The device side of IEEE C37.118.2: a server that answers command frames the way a PMU or PDC
 * does (configuration 1, 2 and 3, header, data on and off) and sends data frames to the TCP
 * clients and UDP peers that asked for them, or spontaneously to one UDP address. Used by the PMU
 * simulator and by the gateway's egress, which serves GridStat data to C37.118 applications.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.gateway.device;
