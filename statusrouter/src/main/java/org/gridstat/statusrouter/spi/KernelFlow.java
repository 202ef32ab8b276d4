package org.gridstat.statusrouter.spi;

import org.gridstat.core.model.ServiceClass;

/**
 * A flow as the kernel shapes it: its packets are the status events of {@code variableId} sent
 * on the link, held to {@code assuredRate} and let borrow up to {@code ceilingRate} (bytes per
 * second on the wire, IP and UDP headers included, as the broker reserves).
 *
 * @param meanWireBytes the flow's mean packet size on the wire so far (0: not known yet), so the
 *                      kernel can add what it counts beyond the IP layer
 */
public record KernelFlow(long flowId, long variableId, ServiceClass serviceClass, long assuredRate, long ceilingRate,
                         double meanWireBytes) {
}
