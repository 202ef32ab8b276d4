package org.gridstat.core.forward;

import org.gridstat.core.stats.CounterSnapshot;

/** The forwarding engine's counters at one instant; {@link #all()} has every one by its key. */
public final class ForwardingCounters {
    private final CounterSnapshot<EngineCounter> values;

    ForwardingCounters(CounterSnapshot<EngineCounter> values) {
        this.values = values;
    }

    public CounterSnapshot<EngineCounter> all() {
        return values;
    }

    public long get(EngineCounter c) {
        return values.get(c);
    }

    public long unknownVariable() {
        return get(EngineCounter.UNKNOWN_VARIABLE);
    }

    public long filtered() {
        return get(EngineCounter.FILTERED);
    }

    public long queued() {
        return get(EngineCounter.QUEUED);
    }

    public long refused() {
        return get(EngineCounter.REFUSED);
    }

    public long commandsApplied() {
        return get(EngineCounter.COMMANDS_APPLIED);
    }

    public long commandsStale() {
        return get(EngineCounter.COMMANDS_STALE);
    }

    public long commandsRejected() {
        return get(EngineCounter.COMMANDS_REJECTED);
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
