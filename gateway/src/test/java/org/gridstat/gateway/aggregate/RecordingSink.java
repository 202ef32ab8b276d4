package org.gridstat.gateway.aggregate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Keeps a copy of every aggregate emitted, in order. */
final class RecordingSink implements AggregateSink {
    record Emitted(int regionId, long startNanos, byte[] payload) {
        AggregatePayload view() {
            AggregatePayload v = new AggregatePayload();
            if (!v.wrap(payload, 0, payload.length)) {
                throw new AssertionError("not a well-formed aggregate: " + payload.length + " bytes");
            }
            return v;
        }
    }

    final List<Emitted> emitted = new ArrayList<>();

    @Override
    public synchronized void emit(int regionId, long intervalStartNanos, byte[] payload, int offset, int length) {
        emitted.add(new Emitted(regionId, intervalStartNanos, Arrays.copyOfRange(payload, offset, offset + length)));
    }

    synchronized List<Emitted> snapshot() {
        return List.copyOf(emitted);
    }
}
