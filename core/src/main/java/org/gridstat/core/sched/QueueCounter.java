package org.gridstat.core.sched;

import org.gridstat.core.stats.CounterDescriptor;

/** The counters of one queue (a flow, a class or the control queue), each described once. */
public enum QueueCounter implements CounterDescriptor {
    ARRIVALS("events queued"),
    ARRIVAL_BYTES("bytes of the events queued"),
    DEPARTURES("events sent"),
    DEPARTURE_BYTES("bytes of the events sent"),
    OVERFLOW_DROPS("events refused because the queue was full"),
    DEADLINE_MISSES("events dropped at the head once they could no longer meet their end-to-end deadline"),
    REMOVED_DROPS("events dropped because their flow was torn down while they waited"),
    BACKLOG("events waiting now"),
    ARRIVAL_RATE("moving average of bytes queued per second (a double's bits)"),
    DEPARTURE_RATE("moving average of bytes sent per second (a double's bits)"),
    DEMAND_RATE("demand on the wire for congestion control, bytes per second: the moving average of arrivals with their"
            + " IP and UDP headers, or the last period's if higher (a double's bits)"),
    LEAST_SLACK("the least time, ns, an event that could still meet its end-to-end deadline had left when it arrived,"
            + " over the last estimator period in which such events arrived (Long.MAX_VALUE: none yet, or the last"
            + " period's arrivals had no deadline; flows only)");

    private final String description;

    QueueCounter(String description) {
        this.description = description;
    }

    @Override
    public String description() {
        return description;
    }
}
