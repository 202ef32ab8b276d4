package org.gridstat.core.sched;

/**
 * A flow's bounded FIFO of events with their size, hop deadline (the EDF key), expiry (the latest
 * departure that still meets the end-to-end deadline), arrival order (the FIFO key, and the
 * tie-break among equal deadlines) and arrival time. The key a head is ordered by follows from
 * the flow's class when it is placed, so a class change re-keys the backlog.
 */
final class FlowQueue<E> {
    private final Object[] events;
    private final int[] sizes;
    private final long[] deadlines;
    private final long[] expiries;
    private final long[] orders;
    private final long[] arrivals;
    private int head;
    private int count;

    FlowQueue(int capacity) {
        events = new Object[capacity];
        sizes = new int[capacity];
        deadlines = new long[capacity];
        expiries = new long[capacity];
        orders = new long[capacity];
        arrivals = new long[capacity];
    }

    int size() {
        return count;
    }

    boolean isEmpty() {
        return count == 0;
    }

    boolean isFull() {
        return count == events.length;
    }

    void push(E event, int size, long deadline, long expiry, long order, long arrival) {
        int at = head + count;
        if (at >= events.length) {
            at -= events.length;
        }
        events[at] = event;
        sizes[at] = size;
        deadlines[at] = deadline;
        expiries[at] = expiry;
        orders[at] = order;
        arrivals[at] = arrival;
        count++;
    }

    @SuppressWarnings("unchecked")
    E headEvent() {
        return (E) events[head];
    }

    int headSize() {
        return sizes[head];
    }

    long headDeadline() {
        return deadlines[head];
    }

    long headExpiry() {
        return expiries[head];
    }

    long headOrder() {
        return orders[head];
    }

    long headArrival() {
        return arrivals[head];
    }

    @SuppressWarnings("unchecked")
    E pop() {
        E e = (E) events[head];
        events[head] = null;
        head = head + 1 == events.length ? 0 : head + 1;
        count--;
        return e;
    }
}
