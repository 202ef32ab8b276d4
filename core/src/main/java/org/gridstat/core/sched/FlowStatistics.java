package org.gridstat.core.sched;

import org.gridstat.core.model.ServiceClass;

/** One flow's statistics on one out-link. */
public final class FlowStatistics {
    private final long flowId;
    private final ServiceClass serviceClass;
    private final QueueStatistics queue;

    FlowStatistics(long flowId, ServiceClass serviceClass, QueueStatistics queue) {
        this.flowId = flowId;
        this.serviceClass = serviceClass;
        this.queue = queue;
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
        return "flow " + flowId + " " + serviceClass + ": " + queue;
    }
}
