package org.gridstat.core.sched;

import org.gridstat.core.model.ServiceClass;

/** One flow's statistics on one out-link. */
public final class FlowStatistics {
    private final long flowId;
    private final ServiceClass serviceClass;
    private final QueueStatistics queue;
    private final long reservedRate;
    private final long assuredRate;
    private final long shortfall;
    private final int heldRateHz;

    FlowStatistics(long flowId, ServiceClass serviceClass, QueueStatistics queue, long reservedRate, long assuredRate,
                   long shortfall, int heldRateHz) {
        this.shortfall = shortfall;
        this.heldRateHz = heldRateHz;
        this.flowId = flowId;
        this.serviceClass = serviceClass;
        this.queue = queue;
        this.reservedRate = reservedRate;
        this.assuredRate = assuredRate;
    }

    /** The assured rate the broker reserved, bytes per second. */
    public long reservedRate() {
        return reservedRate;
    }

    /** How much more than its assured rate the flow needs and congestion control could not find, bytes per second. */
    public long shortfall() {
        return shortfall;
    }

    /** The samples per second congestion control holds the flow to (its lending, or its next hop's notice); 0: none. */
    public int heldRateHz() {
        return heldRateHz;
    }

    /** The assured rate in force: the reservation, or what congestion control moved it to. */
    public long assuredRate() {
        return assuredRate;
    }

    public long flowId() {
        return flowId;
    }

    public ServiceClass serviceClass() {
        return serviceClass;
    }

    public QueueStatistics queue() {
        return queue;
    }

    @Override
    public String toString() {
        return "flow " + flowId + " " + serviceClass + (assuredRate == reservedRate ? "" : " assured " + assuredRate + " of "
                + reservedRate + " B/s reserved") + ": " + queue;
    }
}
