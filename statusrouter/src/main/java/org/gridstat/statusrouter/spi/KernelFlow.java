package org.gridstat.statusrouter.spi;

import org.gridstat.core.model.ServiceClass;

/**
 * A flow as the kernel shapes it: its packets are the status events of {@code variableId} sent
 * on the link, held to {@code assuredRate} and let borrow up to {@code ceilingRate} (bytes per
 * second on the wire, IP and UDP headers included, as the broker reserves).
 *
 * @param shortfall     what the flow's demand needs beyond its assured rate that congestion control
 *                      could not find (0: none): the router's scheduler serves HRT ahead of the
 *                      other classes' guarantees, so the kernel gives an HRT flow's shortfall from them
 * @param meanWireBytes the flow's mean packet size on the wire so far (0: not known yet), so the
 *                      kernel can add what it counts beyond the IP layer
 */
public record KernelFlow(long flowId, long variableId, ServiceClass serviceClass, long assuredRate, long ceilingRate,
                         long shortfall, double meanWireBytes) {
}
