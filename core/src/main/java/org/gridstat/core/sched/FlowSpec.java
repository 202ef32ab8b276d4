package org.gridstat.core.sched;

import java.util.Objects;
import org.gridstat.core.model.ServiceClass;

/**
 * One flow on one out-link (a variable's stream on one path): its class, its assured rate AR (the
 * reservation), minimum rate MR (what congestion control never takes away), ceiling CR (what it may
 * borrow up to), its buffer size in events and its correlation group. Rates in bytes per second.
 */
public final class FlowSpec {
    public static final int DEFAULT_BUFFER_EVENTS = 20;

    private final long flowId;
    private final ServiceClass serviceClass;
    private final long assuredRate;
    private final long minimumRate;
    private final long ceilingRate;
    private final int bufferEvents;
    private final String correlationGroup;

    private FlowSpec(long flowId, ServiceClass serviceClass, long assuredRate, long minimumRate, long ceilingRate,
                     int bufferEvents, String correlationGroup) {
        this.flowId = flowId;
        this.serviceClass = serviceClass;
        this.assuredRate = assuredRate;
        this.minimumRate = minimumRate;
        this.ceilingRate = ceilingRate;
        this.bufferEvents = bufferEvents;
        this.correlationGroup = correlationGroup;
    }

    /**
     * @throws IllegalArgumentException unless 0 &lt;= MR &lt;= AR &lt;= CR, CR &gt; 0, the class is a data class and
     *                                  the buffer holds 1..65536 events
     */
    public static FlowSpec of(long flowId, ServiceClass serviceClass, long assuredRate, long minimumRate,
                              long ceilingRate, int bufferEvents, String correlationGroup) {
        Objects.requireNonNull(serviceClass, "service class");
        if (serviceClass == ServiceClass.CONTROL) {
            throw new IllegalArgumentException("flow " + flowId + ": control traffic has its own queue, not flows");
        }
        if (minimumRate < 0 || minimumRate > assuredRate || assuredRate > ceilingRate || ceilingRate <= 0) {
            throw new IllegalArgumentException("flow " + flowId + ": rates must satisfy 0 <= MR <= AR <= CR and CR > 0, got MR "
                    + minimumRate + ", AR " + assuredRate + ", CR " + ceilingRate + " B/s");
        }
        if (bufferEvents < 1 || bufferEvents > 65536) {
            throw new IllegalArgumentException("flow " + flowId + ": buffer must hold 1..65536 events, got " + bufferEvents);
        }
        return new FlowSpec(flowId, serviceClass, assuredRate, minimumRate, ceilingRate, bufferEvents,
                correlationGroup == null ? "" : correlationGroup);
    }

    /** A flow with the default buffer and no correlation group. */
    public static FlowSpec of(long flowId, ServiceClass serviceClass, long assuredRate, long ceilingRate) {
        return of(flowId, serviceClass, assuredRate, 0, ceilingRate, DEFAULT_BUFFER_EVENTS, "");
    }

    public FlowSpec withRates(long assured, long minimum, long ceiling) {
        return of(flowId, serviceClass, assured, minimum, ceiling, bufferEvents, correlationGroup);
    }

    public FlowSpec withServiceClass(ServiceClass c) {
        return of(flowId, c, assuredRate, minimumRate, ceilingRate, bufferEvents, correlationGroup);
    }

    public FlowSpec withCorrelationGroup(String group) {
        return of(flowId, serviceClass, assuredRate, minimumRate, ceilingRate, bufferEvents, group);
    }

    Shaping shaping() {
        return Shaping.of(assuredRate, ceilingRate);
    }

    public long flowId() {
        return flowId;
    }

    public ServiceClass serviceClass() {
        return serviceClass;
    }

    public long assuredRate() {
        return assuredRate;
    }

    public long minimumRate() {
        return minimumRate;
    }

    public long ceilingRate() {
        return ceilingRate;
    }

    public int bufferEvents() {
        return bufferEvents;
    }

    public String correlationGroup() {
        return correlationGroup;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FlowSpec f && f.flowId == flowId && f.serviceClass == serviceClass && f.assuredRate == assuredRate
                && f.minimumRate == minimumRate && f.ceilingRate == ceilingRate && f.bufferEvents == bufferEvents
                && f.correlationGroup.equals(correlationGroup);
    }

    @Override
    public int hashCode() {
        return Objects.hash(flowId, serviceClass, assuredRate, minimumRate, ceilingRate, bufferEvents, correlationGroup);
    }

    @Override
    public String toString() {
        return "flow " + flowId + " " + serviceClass + " AR " + assuredRate + " MR " + minimumRate + " CR " + ceilingRate
                + " B/s, buffer " + bufferEvents + (correlationGroup.isEmpty() ? "" : ", group " + correlationGroup);
    }
}
