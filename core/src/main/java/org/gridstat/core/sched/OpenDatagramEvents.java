package org.gridstat.core.sched;

/**
 * The events a link's scheduler released whose datagram has not closed yet, oldest first: each
 * one's flow slot and flow id (slot -1: control traffic), so that closing the datagram can give
 * each flow what sharing its headers saved. A ring grown on demand (32 entries hold what a
 * 1,500-byte datagram packs and the next event) up to {@value #MOST}, a jumbo datagram's; when it
 * is full the oldest is forgotten, which only a caller that never closes datagrams sees.
 */
final class OpenDatagramEvents {
    static final int MOST = 4096;

    private int[] slots = new int[32];
    private long[] flows = new long[32];
    private int head;
    private int count;

    void add(int slot, long flowId) {
        if (count == slots.length) {
            if (slots.length < MOST) {
                grow();
            } else {
                removeHead();
            }
        }
        int at = (head + count) & (slots.length - 1);
        slots[at] = slot;
        flows[at] = flowId;
        count++;
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** The oldest event's slot (-1: control). */
    int headSlot() {
        return slots[head];
    }

    /** The oldest event's flow id. */
    long headFlow() {
        return flows[head];
    }

    void removeHead() {
        head = (head + 1) & (slots.length - 1);
        count--;
    }

    private void grow() {
        int[] s = new int[slots.length * 2];
        long[] f = new long[s.length];
        for (int i = 0; i < count; i++) {
            int at = (head + i) & (slots.length - 1);
            s[i] = slots[at];
            f[i] = flows[at];
        }
        slots = s;
        flows = f;
        head = 0;
    }
}
