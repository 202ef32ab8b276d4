package org.gridstat.statusrouter.internal;

import org.gridstat.core.stats.CounterDescriptor;

/** The counters of one ingress socket besides its drops by reason, each described once. */
enum IngressCounter implements CounterDescriptor {
    RECEIVED("received", "datagrams that arrived on the data port, valid or not"),
    HANDOFF_DROPS("handoffDrops", "frames dropped because the data path's hand-off ring was full"),
    RECEIVE_ERRORS("receiveErrors", "reads the operating system failed");

    private final String key;
    private final String description;

    IngressCounter(String key, String description) {
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
