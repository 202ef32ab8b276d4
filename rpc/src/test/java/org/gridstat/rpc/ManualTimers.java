package org.gridstat.rpc;

import java.util.PriorityQueue;
import org.gridstat.rpc.transport.Timers;

/** Timers on a hand-stepped clock: tasks run in time order, then in the order they were set. */
public final class ManualTimers implements Timers {
    public static final long EPOCH_BASE = 1_767_225_600_000_000_000L;

    private record Task(long at, long seq, Runnable run, boolean[] cancelled) {
    }

    private final PriorityQueue<Task> tasks = new PriorityQueue<>((a, b) -> a.at != b.at ? Long.compare(a.at, b.at)
            : Long.compare(a.seq, b.seq));
    private long now;
    private long seq;
    private long epochOffset;

    @Override
    public long nowNanos() {
        return now;
    }

    @Override
    public long epochNanos() {
        return EPOCH_BASE + now + epochOffset;
    }

    /** Steps the epoch clock (NTP) without moving the monotonic one. */
    public void stepEpoch(long nanos) {
        epochOffset += nanos;
    }

    @Override
    public Cancellable after(long delayNanos, Runnable task) {
        boolean[] cancelled = new boolean[1];
        tasks.add(new Task(now + Math.max(0, delayNanos), seq++, task, cancelled));
        return () -> cancelled[0] = true;
    }

    /** Runs every task due up to {@code t}, then sets the clock to {@code t}. */
    public void runUntil(long t) {
        Task next;
        while ((next = tasks.peek()) != null && next.at <= t) {
            tasks.poll();
            now = next.at;
            if (!next.cancelled[0]) {
                next.run.run();
            }
        }
        now = Math.max(now, t);
    }

    public void advance(long nanos) {
        runUntil(now + nanos);
    }

    /** Runs everything, however far ahead. */
    public void drain() {
        Task last;
        while ((last = tasks.peek()) != null) {
            runUntil(last.at);
        }
    }
}
