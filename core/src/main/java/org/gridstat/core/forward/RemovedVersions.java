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

    /** The ring starts this small and doubles as removals come, up to the capacity. */
    private static final int INITIAL = 64;

    private final LongObjectMap<Removal> versions = new LongObjectMap<>(16);
    private final int capacity;
    /** Ring of (flow id, sequence) in removal order; an entry whose sequence no longer matches is spent. */
    private long[] ids;
    private long[] sequences;
    private int head;
    private int count;
    private long nextSequence;

    RemovedVersions(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive");
        }
        this.capacity = capacity;
        ids = new long[Math.min(capacity, INITIAL)];
        sequences = new long[ids.length];
    }

    void remember(long flowId, long version) {
        if (count == ids.length && ids.length < capacity) {
            grow();
        }
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

    /** Doubles the ring, oldest first from 0; a router that removes few flows never holds the whole capacity. */
    private void grow() {
        int size = (int) Math.min(capacity, 2L * ids.length);
        long[] i = new long[size];
        long[] q = new long[size];
        for (int k = 0; k < count; k++) {
            int from = (head + k) % ids.length;
            i[k] = ids[from];
            q[k] = sequences[from];
        }
        ids = i;
        sequences = q;
        head = 0;
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
