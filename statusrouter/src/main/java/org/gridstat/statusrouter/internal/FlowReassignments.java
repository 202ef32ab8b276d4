package org.gridstat.statusrouter.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.LongPredicate;
import org.gridstat.core.congestion.Decision;

/**
 * How many of congestion control's reassignments moved each flow's assured rate: a count per flow
 * id, written by the data-path thread as the engine reports each {@link Decision}, read by any
 * thread (the control channel's flow reports). A reassignment is a decision of kind
 * {@link Decision.Kind#LENT LENT}, {@link Decision.Kind#RETURNED RETURNED},
 * {@link Decision.Kind#GRANTED GRANTED} or {@link Decision.Kind#RELEASED RELEASED}, counted for the
 * flow it names ({@link Decision#flowId()}), whose rate it moved: a lend is the lender's
 * {@code LENT} and the borrower's {@code GRANTED}, one each. {@code UNMET} and {@code MET} move no
 * rate: they are alarms, not counted. The engine counts the same decisions as
 * {@code RATES_REASSIGNED}.
 *
 * <p>An open-addressing table of flow ids and counts. Counting a flow already in it is a probe and
 * a store; a flow's first count may grow the table, which allocates, once per new flow and not per
 * decision: at growth the flows the router no longer holds are forgotten first, so the table stays
 * within a few times the flows that congestion control moved. A slot's count is written after its
 * id, with release semantics, and read with acquire: a reader that sees a count sees its id; a count
 * is never lowered, so a reader sees a recent one (the next read a newer). A reader holding a table
 * the writer has since replaced sees counts as of the replacement.
 */
final class FlowReassignments {
    private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);
    static final int INITIAL_CAPACITY = 64;

    /** One generation of the table: ids and counts by slot; a slot is free while its count is 0. */
    private static final class Table {
        final long[] ids;
        final long[] counts;
        final int mask;

        Table(int capacity) {
            ids = new long[capacity];
            counts = new long[capacity];
            mask = capacity - 1;
        }
    }

    /** Whether the router still holds a flow: consulted (on the data-path thread) when the table grows. */
    private final LongPredicate held;
    private volatile Table table = new Table(INITIAL_CAPACITY);
    /** Slots in use in {@link #table}; writer only. */
    private int used;

    /** @param held whether the router holds a flow now; asked on the data-path thread only */
    FlowReassignments(LongPredicate held) {
        this.held = held;
    }

    /** Counts a decision if it is a reassignment; on the data-path thread. */
    void decided(Decision d) {
        switch (d.kind()) {
            case LENT, RETURNED, GRANTED, RELEASED -> count(d.flowId());
            default -> { }
        }
    }

    /** One more reassignment of flow {@code flowId}; on the data-path thread. */
    void count(long flowId) {
        Table t = table;
        int i = slot(t, flowId);
        if (i >= 0) {
            long c = t.counts[i]; // the writer's own
            COUNTS.setRelease(t.counts, i, c + 1);
            return;
        }
        if (2 * (used + 1) > t.ids.length) { // at most half full, so every probe ends at a free slot
            t = grown(t);
        }
        insert(t, flowId, 1);
        used++;
    }

    /** The reassignments of flow {@code flowId} counted so far (0: none); from any thread. */
    long of(long flowId) {
        Table t = table;
        int i = slot(t, flowId);
        return i < 0 ? 0 : (long) COUNTS.getAcquire(t.counts, i);
    }

    /** Flows counted and still in the table (for tests). */
    int size() {
        return used;
    }

    /** The slot of {@code flowId} in {@code t}, or -1 if it has none. */
    private static int slot(Table t, long flowId) {
        for (int i = hash(flowId) & t.mask; ; i = (i + 1) & t.mask) {
            long c = (long) COUNTS.getAcquire(t.counts, i);
            if (c == 0) {
                return -1;
            }
            if (t.ids[i] == flowId) {
                return i;
            }
        }
    }

    /** Puts a flow not in {@code t} into its first free slot, its id before its count. */
    private static void insert(Table t, long flowId, long count) {
        int i = hash(flowId) & t.mask;
        while (t.counts[i] != 0) {
            i = (i + 1) & t.mask;
        }
        t.ids[i] = flowId;
        COUNTS.setRelease(t.counts, i, count);
    }

    /**
     * A table with room for one more flow: the flows of {@code t} the router still holds, in a
     * table at most a quarter full; published before it is returned.
     */
    private Table grown(Table t) {
        int kept = 0;
        for (int i = 0; i < t.ids.length; i++) {
            if (t.counts[i] != 0 && held.test(t.ids[i])) {
                kept++;
            }
        }
        int capacity = INITIAL_CAPACITY;
        while (capacity < 4 * (kept + 1)) {
            capacity <<= 1;
        }
        Table next = new Table(capacity);
        for (int i = 0; i < t.ids.length; i++) {
            if (t.counts[i] != 0 && held.test(t.ids[i])) {
                insert(next, t.ids[i], t.counts[i]);
            }
        }
        used = kept;
        table = next; // readers move to it whole
        return next;
    }

    /** MurmurHash3's finaliser: ids that differ in any bit spread over the table's low bits. */
    private static int hash(long id) {
        long h = id;
        h ^= h >>> 33;
        h *= 0xFF51_AFD7_ED55_8CCDL;
        h ^= h >>> 33;
        h *= 0xC4CE_B9FE_1A85_EC53L;
        h ^= h >>> 33;
        return (int) h;
    }
}
