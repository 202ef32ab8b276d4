package org.gridstat.core.sched;

import java.util.List;
import java.util.Map;
import org.gridstat.core.model.ServiceClass;

/** An out-link's statistics: per flow, per class (control included) at one instant. */
public final class LinkStatistics {
    private final List<FlowStatistics> flows;
    private final Map<ServiceClass, QueueStatistics> classes;

    LinkStatistics(List<FlowStatistics> flows, Map<ServiceClass, QueueStatistics> classes) {
        this.flows = List.copyOf(flows);
        this.classes = Map.copyOf(classes);
    }

    public List<FlowStatistics> flows() {
        return flows;
    }

    /** The flow's statistics, or {@code null} if the link has no such flow. */
    public FlowStatistics flow(long flowId) {
        for (FlowStatistics f : flows) {
            if (f.flowId() == flowId) {
                return f;
            }
        }
        return null;
    }

    public QueueStatistics serviceClass(ServiceClass c) {
        return classes.get(c);
    }
}
