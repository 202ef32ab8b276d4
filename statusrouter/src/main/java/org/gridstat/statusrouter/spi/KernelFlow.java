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
 * @param minimumRate   the least rate the flow keeps when it lends to an HRT flow (its MR)
 * @param heldRate      what congestion control's hold lets through, bytes per second on the wire
 *                      (its samples a second at the flow's mean size; 0: no hold): a held flow
 *                      cannot use more, so of its minimum rate it keeps only that
 * @param slackMillis   the least time, whole ms, its events had left on arrival before they could no
 *                      longer meet their end-to-end deadline ({@link #NO_DEADLINE}: none has one):
 *                      the kernel does not know deadlines, so a leaf's queue holds no more than can
 *                      leave in that time, and what would wait longer is dropped, not sent late
 */
public record KernelFlow(long flowId, long variableId, ServiceClass serviceClass, long assuredRate, long ceilingRate,
                         long shortfall, double meanWireBytes, long minimumRate, long heldRate, long slackMillis) {
    public static final long NO_DEADLINE = Long.MAX_VALUE;

    /** A flow with no minimum rate, no hold and no deadline: all it has above the least rate may be lent. */
    public KernelFlow(long flowId, long variableId, ServiceClass serviceClass, long assuredRate, long ceilingRate,
                      long shortfall, double meanWireBytes) {
        this(flowId, variableId, serviceClass, assuredRate, ceilingRate, shortfall, meanWireBytes, 0, 0, NO_DEADLINE);
    }

    public KernelFlow withSlackMillis(long slack) {
        return new KernelFlow(flowId, variableId, serviceClass, assuredRate, ceilingRate, shortfall, meanWireBytes,
                minimumRate, heldRate, slack);
    }
}
