package org.gridstat.sim.engine;

import java.util.PriorityQueue;

/**
 * The simulator's discrete-event engine: actions run in order of their time, and actions due at
 * the same time in the order they were scheduled, so a run is a pure function of its inputs. One
 * thread; simulated time never reads a wall clock. Time is in nanoseconds from the start of the
 * run.
 */
public final class EventLoop {
    /** A scheduled action; {@link #cancel()} keeps it from running. */
    public static final class Timer implements Comparable<Timer> {
        private final long at;
        private final long sequence;
        private Runnable action;

        private Timer(long at, long sequence, Runnable action) {
            this.at = at;
            this.sequence = sequence;
            this.action = action;
        }

        public long at() {
            return at;
        }

        public void cancel() {
            action = null;
        }

        public boolean pending() {
            return action != null;
        }

        @Override
        public int compareTo(Timer o) {
            int c = Long.compare(at, o.at);
            return c != 0 ? c : Long.compare(sequence, o.sequence);
        }
    }

    private final PriorityQueue<Timer> queue = new PriorityQueue<>();
    private long now;
    private long sequence;
    private long executed;
    private boolean stopped;

    /** The current simulated time. */
    public long now() {
        return now;
    }

    /**
     * Runs {@code action} at {@code at}; a time already past runs it now, after what is already
     * due now.
     */
    public Timer at(long at, Runnable action) {
        Timer t = new Timer(Math.max(at, now), sequence++, action);
        queue.add(t);
        return t;
    }

    /** Runs {@code action} {@code delay} nanoseconds from now. */
    public Timer after(long delay, Runnable action) {
        // Saturating: a delay of centuries is "never", not a time in the past that runs at once.
        long at = now + Math.max(0, delay);
        return at(at < now ? Long.MAX_VALUE : at, action);
    }

    /**
     * Runs every action due up to and including {@code end}, then leaves the clock at {@code end};
     * once {@link #stop() stopped}, returns after the action that stopped it with the clock at its time.
     */
    public void runUntil(long end) {
        Timer t;
        while (!stopped && (t = queue.peek()) != null && t.at <= end) {
            queue.poll();
            Runnable a = t.action;
            if (a == null) {
                continue;
            }
            t.action = null;
            now = t.at;
            executed++;
            a.run();
        }
        if (!stopped) {
            now = Math.max(now, end);
        }
    }

    /**
     * Ends the run after the action running now: what is still scheduled never runs. For a run
     * whose end an application decides (its last call answered) rather than a fixed duration.
     */
    public void stop() {
        stopped = true;
    }

    public boolean stopped() {
        return stopped;
    }

    /** Actions run so far (cancelled ones excluded). */
    public long executed() {
        return executed;
    }

    /** Actions scheduled and not yet run or dropped. */
    public int pending() {
        return queue.size();
    }
}
