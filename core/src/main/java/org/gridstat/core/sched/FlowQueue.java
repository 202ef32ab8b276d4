package org.gridstat.core.sched;

/**
 * A flow's bounded FIFO of events with their size, hop deadline (the EDF key), expiry (the latest
 * departure that still meets the end-to-end deadline), arrival order (the FIFO key, and the
 * tie-break among equal deadlines) and arrival time. The key a head is ordered by follows from
 * the flow's class when it is placed, so a class change re-keys the backlog.
 *
 * <p>The ring starts with room for {@value #INITIAL_CAPACITY} events (fewer if the bound is
 * smaller) and doubles when a push finds it full, its last step cut to the bound, so a flow's
 * memory follows the deepest backlog it has had, never beyond its bound. It never shrinks: once
 * a flow's ring has grown to its backlog, queueing allocates nothing.
 */
final class FlowQueue<E> {
    /** Events a new flow's ring holds before it first grows. */
    static final int INITIAL_CAPACITY = 16;

    private final int bound;
    private Object[] events;
    private int[] sizes;
    private long[] deadlines;
    private long[] expiries;
    private long[] orders;
    private long[] arrivals;
    private int head;
    private int count;

    /** @param bound the most events the queue holds */
    FlowQueue(int bound) {
        if (bound < 1) {
            throw new IllegalArgumentException("a queue holds at least one event, got " + bound);
        }
        this.bound = bound;
        allocate(Math.min(bound, INITIAL_CAPACITY));
    }

    private void allocate(int capacity) {
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

    /** Whether the queue holds its bound. */
    boolean isFull() {
        return count == bound;
    }

    /** Events the ring holds before it next grows. */
    int capacity() {
        return events.length;
    }

    /** Pushes at the tail; the caller checks {@link #isFull} first. */
    void push(E event, int size, long deadline, long expiry, long order, long arrival) {
        if (count == events.length) {
            grow();
        }
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

    /** Doubles the ring, at most to the bound, unwrapping it so the head is at slot 0. */
    private void grow() {
        if (count == bound) {
            throw new IllegalStateException("queue full at its bound of " + bound + " events");
        }
        Object[] oldEvents = events;
        int[] oldSizes = sizes;
        long[] oldDeadlines = deadlines;
        long[] oldExpiries = expiries;
        long[] oldOrders = orders;
        long[] oldArrivals = arrivals;
        int old = oldEvents.length;
        allocate((int) Math.min(bound, 2L * old));
        int first = old - head; // from the head to the end of the old ring
        if (first > count) {
            first = count;
        }
        unwrap(oldEvents, events, first);
        unwrap(oldSizes, sizes, first);
        unwrap(oldDeadlines, deadlines, first);
        unwrap(oldExpiries, expiries, first);
        unwrap(oldOrders, orders, first);
        unwrap(oldArrivals, arrivals, first);
        head = 0;
    }

    /** Copies the ring in {@code from} (its {@code first} slots from the head, then the rest) to the start of {@code to}. */
    private void unwrap(Object from, Object to, int first) {
        System.arraycopy(from, head, to, 0, first);
        System.arraycopy(from, 0, to, first, count - first);
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
