package org.gridstat.core.forward;

import org.gridstat.core.stats.CounterDescriptor;

/** The forwarding engine's counters, each described once. */
public enum EngineCounter implements CounterDescriptor {
    UNKNOWN_VARIABLE("events of a variable this router has no flow for"),
    SOURCE_TIME_AHEAD("events stamped further ahead of the router's clock than it trusts"),
    SOURCE_TIME_STALE("events stamped longer ago than any deadline they could still meet"),
    FILTERED("copies a rate filter held back: not needed past their link"),
    QUEUED("copies queued on out-links"),
    REFUSED("copies refused by full flow buffers (also an overflow drop of the flow)"),
    COMMANDS_APPLIED("flow commands applied"),
    COMMANDS_STALE("flow commands ignored: the flow already had that version or a newer one"),
    COMMANDS_REJECTED("flow commands refused: unknown out-link, no free slot, a second flow of a variable on a link"),
    RATES_REASSIGNED("assured rates congestion control moved away from, or back to, a flow's reservation"),
    NEEDS_UNMET("congested HRT flows' needs no victim could cover (an alarm for the broker), or that changed since"),
    NEEDS_MET("needs reported unmet that were covered again"),
    HELD("copies held back by a congestion hold: the next hop asked for fewer samples of the variable");

    private final String description;

    EngineCounter(String description) {
        this.description = description;
    }

    @Override
    public String description() {
        return description;
    }
}
