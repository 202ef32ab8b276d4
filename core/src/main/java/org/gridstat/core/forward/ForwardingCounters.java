package org.gridstat.core.forward;

/** The forwarding engine's counters at one instant. */
public final class ForwardingCounters {
    private final long unknownVariable;
    private final long filtered;
    private final long queued;
    private final long refused;
    private final long commandsApplied;
    private final long commandsStale;
    private final long commandsRejected;

    ForwardingCounters(long unknownVariable, long filtered, long queued, long refused, long commandsApplied,
                       long commandsStale, long commandsRejected) {
        this.unknownVariable = unknownVariable;
        this.filtered = filtered;
        this.queued = queued;
        this.refused = refused;
        this.commandsApplied = commandsApplied;
        this.commandsStale = commandsStale;
        this.commandsRejected = commandsRejected;
    }

    /** Events for variables this node has no flow for. */
    public long unknownVariable() {
        return unknownVariable;
    }

    /** Copies the rate filters held back: not needed downstream of their link. */
    public long filtered() {
        return filtered;
    }

    /** Copies queued on out-links. */
    public long queued() {
        return queued;
    }

    /** Copies refused by full flow buffers (also counted per flow as overflow). */
    public long refused() {
        return refused;
    }

    public long commandsApplied() {
        return commandsApplied;
    }

    /** Commands ignored because the flow already had that version or a newer one. */
    public long commandsStale() {
        return commandsStale;
    }

    /** Commands refused: unknown out-link, a link out of flow slots. */
    public long commandsRejected() {
        return commandsRejected;
    }

    @Override
    public String toString() {
        return "unknownVariable=" + unknownVariable + " filtered=" + filtered + " queued=" + queued + " refused=" + refused
                + " commands applied/stale/rejected=" + commandsApplied + "/" + commandsStale + "/" + commandsRejected;
    }
}
