package org.gridstat.broker.control;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The broker's recent alarms for operators: a router refusing a change, a peer breaking the
 * protocol, a router going away. Bounded: the oldest alarm goes when a new one would exceed the
 * capacity, and {@link #dropped} counts how many went.
 */
public final class AlarmLog {
    /** One alarm: when (ms since 1970), where from, what. */
    public record Alarm(long timeMillis, String source, String message) {
    }

    private final int capacity;
    private final ArrayDeque<Alarm> alarms = new ArrayDeque<>();
    private long dropped;

    public AlarmLog(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("alarm capacity must be positive");
        }
        this.capacity = capacity;
    }

    public synchronized void raise(String source, String message) {
        if (alarms.size() == capacity) {
            alarms.removeFirst();
            dropped++;
        }
        alarms.addLast(new Alarm(System.currentTimeMillis(), source, message));
    }

    /** The alarms kept, oldest first. */
    public synchronized List<Alarm> recent() {
        return new ArrayList<>(alarms);
    }

    public synchronized long dropped() {
        return dropped;
    }
}
