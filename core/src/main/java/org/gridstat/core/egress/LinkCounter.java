package org.gridstat.core.egress;

import org.gridstat.core.stats.CounterDescriptor;

/** The counters of one out-link's sending side, each described once. */
public enum LinkCounter implements CounterDescriptor {
    SENT("copies handed to the link's socket"),
    DATAGRAMS("datagrams handed to the link's socket: a lone copy, or a batch of several"),
    SEND_ERRORS("sends the operating system refused (a neighbour's port closed)"),
    EMULATION_LOST("copies an emulated link lost: omission, outage or its full queue"),
    DELAY_LINE_FULL("copies dropped because the emulated link's delay line was full");

    private final String description;

    LinkCounter(String description) {
        this.description = description;
    }

    @Override
    public String description() {
        return description;
    }
}
