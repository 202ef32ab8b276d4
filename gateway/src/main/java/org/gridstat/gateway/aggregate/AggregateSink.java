package org.gridstat.gateway.aggregate;

/** Where closed intervals go: one aggregate payload per region and interval. */
public interface AggregateSink {
    /**
     * One region's interval, closed. Called on the aggregator's thread, regions in ascending id
     * order within an interval, intervals in time order.
     *
     * @param payload the aggregate (layout in {@link AggregatePayload}), valid only during the call
     * @param intervalStartNanos the interval's start, ns since the epoch: the status event's timestamp
     */
    void emit(int regionId, long intervalStartNanos, byte[] payload, int offset, int length);
}
