package org.gridstat.core.sched;

import java.util.Arrays;

/**
 * A binary min-heap of ids {@code 0..capacity-1} ordered by a long key, then a long tie-breaker,
 * then the id. Every id is in the heap at most once and its keys can change in place. No
 * allocation after construction.
 */
final class IndexedMinHeap {
    private final int[] heap;
    private final long[] keys;
    private final long[] ties;
    private final int[] position;
    private int size;

    IndexedMinHeap(int capacity) {
        heap = new int[capacity];
        keys = new long[capacity];
        ties = new long[capacity];
        position = new int[capacity];
        Arrays.fill(position, -1);
    }

    boolean isEmpty() {
        return size == 0;
    }

    int peek() {
        return heap[0];
    }

    long peekKey() {
        return keys[heap[0]];
    }

    void put(int id, long key) {
        put(id, key, 0);
    }

    /** Adds {@code id}, or moves it if it is already in. */
    void put(int id, long key, long tie) {
        if (position[id] >= 0) {
            keys[id] = key;
            ties[id] = tie;
            up(position[id]);
            down(position[id]);
            return;
        }
        keys[id] = key;
        ties[id] = tie;
        heap[size] = id;
        position[id] = size;
        up(size++);
    }

    int poll() {
        int top = heap[0];
        remove(top);
        return top;
    }

    void remove(int id) {
        int at = position[id];
        if (at < 0) {
            return;
        }
        int last = heap[--size];
        position[id] = -1;
        if (at == size) {
            return;
        }
        heap[at] = last;
        position[last] = at;
        up(at);
        down(position[last]);
    }

    private boolean less(int a, int b) {
        long ka = keys[a];
        long kb = keys[b];
        if (ka != kb) {
            return ka < kb;
        }
        long ta = ties[a];
        long tb = ties[b];
        return ta != tb ? ta < tb : a < b;
    }

    private void up(int at) {
        int id = heap[at];
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            int pid = heap[parent];
            if (!less(id, pid)) {
                break;
            }
            heap[at] = pid;
            position[pid] = at;
            at = parent;
        }
        heap[at] = id;
        position[id] = at;
    }

    private void down(int at) {
        int id = heap[at];
        while (true) {
            int child = 2 * at + 1;
            if (child >= size) {
                break;
            }
            int right = child + 1;
            if (right < size && less(heap[right], heap[child])) {
                child = right;
            }
            int cid = heap[child];
            if (!less(cid, id)) {
                break;
            }
            heap[at] = cid;
            position[cid] = at;
            at = child;
        }
        heap[at] = id;
        position[id] = at;
    }
}
