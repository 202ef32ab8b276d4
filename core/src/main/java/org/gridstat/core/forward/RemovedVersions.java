package org.gridstat.core.forward;

/**
 * The versions of the most recently removed flows, so that a late install of an older version is
 * known as stale. Bounded: beyond {@code capacity} removals the oldest is forgotten (a broker
 * resends only recent history, and its versions grow with its epoch). Control-plane work on the
 * data-path thread; constant time per call.
 */
final class RemovedVersions {
    /** A flow's remembered version and the sequence number of the removal that set it. */
    private record Removal(long version, long sequence) {
    }

    private final LongObjectMap<Removal> versions = new LongObjectMap<>(16);
    /** Ring of (flow id, sequence) in removal order; an entry whose sequence no longer matches is spent. */
    private final long[] ids;
    private final long[] sequences;
    private int head;
    private int count;
    private long nextSequence;

    RemovedVersions(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive");
        }
        ids = new long[capacity];
        sequences = new long[capacity];
    }

    void remember(long flowId, long version) {
        if (count == ids.length) {
            long oldest = ids[head];
            Removal r = versions.get(oldest);
            if (r != null && r.sequence() == sequences[head]) {
                versions.remove(oldest);
            }
            head = (head + 1) % ids.length;
            count--;
        }
        long seq = nextSequence++;
        int at = (head + count) % ids.length;
        ids[at] = flowId;
        sequences[at] = seq;
        count++;
        versions.put(flowId, new Removal(version, seq));
    }

    void forget(long flowId) {
        versions.remove(flowId);
    }

    /** The removed version of {@code flowId}, or 0 if none is remembered. */
    long versionOf(long flowId) {
        Removal r = versions.get(flowId);
        return r == null ? 0 : r.version();
    }

    int size() {
        return versions.size();
    }
}
