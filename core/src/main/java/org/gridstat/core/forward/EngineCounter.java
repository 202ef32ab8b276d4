package org.gridstat.core.forward;

import org.gridstat.core.stats.CounterDescriptor;

/** The forwarding engine's counters, each described once. */
public enum EngineCounter implements CounterDescriptor {
    UNKNOWN_VARIABLE("unknownVariable", "events of a variable this router has no flow for"),
    SOURCE_TIME_AHEAD("sourceTimeAhead", "events stamped further ahead of the router's clock than it trusts"),
    SOURCE_TIME_STALE("sourceTimeStale", "events stamped longer ago than any deadline they could still meet"),
    FILTERED("filtered", "copies a rate filter held back: not needed past their link"),
    QUEUED("queued", "copies queued on out-links"),
    REFUSED("refused", "copies refused by full flow buffers (also an overflow drop of the flow)"),
    COMMANDS_APPLIED("commandsApplied", "flow commands applied"),
    COMMANDS_STALE("commandsStale", "flow commands ignored: the flow already had that version or a newer one"),
    COMMANDS_REJECTED("commandsRejected", "flow commands refused: unknown out-link, no free slot, a second flow of a variable on a link");

    private final String key;
    private final String description;

    EngineCounter(String key, String description) {
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
