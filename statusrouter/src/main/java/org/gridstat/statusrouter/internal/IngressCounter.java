package org.gridstat.statusrouter.internal;

import org.gridstat.core.stats.CounterDescriptor;

/** The counters of one ingress socket besides its drops by reason, each described once. */
enum IngressCounter implements CounterDescriptor {
    RECEIVED("events that arrived on the data port, valid or not: a lone frame, each event of a batch, or a datagram dropped unread"),
    BATCHES("datagrams that arrived as a batch of events with a valid header"),
    HANDOFF_DROPS("frames dropped because the data path's hand-off ring was full"),
    RECEIVE_ERRORS("reads the operating system failed"),
    COALESCED("buffers of several datagrams the kernel coalesced (UDP_GRO), each split into its datagrams");

    private final String description;

    IngressCounter(String description) {
        this.description = description;
    }

    @Override
    public String description() {
        return description;
    }
}
