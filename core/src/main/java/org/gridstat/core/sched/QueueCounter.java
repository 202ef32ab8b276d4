package org.gridstat.core.sched;

import org.gridstat.core.stats.CounterDescriptor;

/** The counters of one queue (a flow, a class or the control queue), each described once. */
public enum QueueCounter implements CounterDescriptor {
    ARRIVALS("arrivals", "events queued"),
    ARRIVAL_BYTES("arrivalBytes", "bytes of the events queued"),
    DEPARTURES("departures", "events sent"),
    DEPARTURE_BYTES("departureBytes", "bytes of the events sent"),
    OVERFLOW_DROPS("overflowDrops", "events refused because the queue was full"),
    DEADLINE_MISSES("deadlineMisses", "events dropped at the head once they could no longer meet their end-to-end deadline"),
    BACKLOG("backlog", "events waiting now"),
    ARRIVAL_RATE("arrivalRate", "moving average of bytes queued per second (a double's bits)"),
    DEPARTURE_RATE("departureRate", "moving average of bytes sent per second (a double's bits)");

    private final String key;
    private final String description;

    QueueCounter(String key, String description) {
        this.key = key;
        this.description = description;
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public String description() {
        return description;
    }
}
