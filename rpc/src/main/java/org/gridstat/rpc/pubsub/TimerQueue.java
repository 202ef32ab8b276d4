package org.gridstat.rpc.pubsub;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.gridstat.rpc.transport.Timers;

/**
 * The timers of one {@link RpcAgent}: tasks due at a monotonic time, run in time order, then in
 * the order they were set. Used by the agent's thread only. A cancelled timer stays in the heap
 * until it is due or until cancelled ones are the majority: then they are swept out at once, so
 * the many timeouts that end early (a call answered long before its 10 s post-condition wait)
 * cost neither memory nor a linear removal each.
 */
final class TimerQueue {
    /** Below this many cancelled timers no sweep is worth it. */
    private static final int SWEEP_FLOOR = 1024;

    private static final class Timer implements Timers.Cancellable {
        final long at;
        final long seq;
        final Runnable task;
        final TimerQueue owner;
        boolean cancelled;

        Timer(long at, long seq, Runnable task, TimerQueue owner) {
            this.at = at;
            this.seq = seq;
            this.task = task;
            this.owner = owner;
        }

        @Override
        public void cancel() {
            if (!cancelled) {
                cancelled = true;
                owner.cancelled();
            }
        }
    }

    private final int maxLive;
    private PriorityQueue<Timer> heap = new PriorityQueue<>(256, (a, b) -> a.at != b.at ? Long.compare(a.at, b.at)
            : Long.compare(a.seq, b.seq));
    private int cancelledInHeap;
    private long seq;

    TimerQueue(int maxLive) {
        this.maxLive = maxLive;
    }

    /**
     * @throws IllegalStateException when {@code maxLive} timers are set and not cancelled
     */
    Timers.Cancellable add(long at, Runnable task) {
        if (live() >= maxLive) {
            throw new IllegalStateException(maxLive + " timers set already in this RPC agent");
        }
        Timer t = new Timer(at, seq++, task, this);
        heap.add(t);
        return t;
    }

    private void cancelled() {
        cancelledInHeap++;
        if (cancelledInHeap > SWEEP_FLOOR && cancelledInHeap > heap.size() / 2) {
            List<Timer> keep = new ArrayList<>(heap.size() - cancelledInHeap);
            for (Timer t : heap) {
                if (!t.cancelled) {
                    keep.add(t);
                }
            }
            PriorityQueue<Timer> swept = new PriorityQueue<>(Math.max(256, keep.size()), heap.comparator());
            swept.addAll(keep);
            heap = swept;
            cancelledInHeap = 0;
        }
    }

    /**
     * Takes the next timer due at or before {@code now}, or returns {@code null}; cancelled ones
     * are skipped.
     */
    Runnable pollDue(long now) {
        Timer t;
        while ((t = heap.peek()) != null && t.at <= now) {
            heap.poll();
            if (t.cancelled) {
                cancelledInHeap--;
                continue;
            }
            t.cancelled = true; // run once; a late cancel() is then a no-op
            return t.task;
        }
        return null;
    }

    /** When the next timer is due, or {@link Long#MAX_VALUE} if none is set. */
    long nextAt() {
        Timer t;
        while ((t = heap.peek()) != null && t.cancelled) {
            heap.poll();
            cancelledInHeap--;
        }
        return t == null ? Long.MAX_VALUE : t.at;
    }

    /** Timers set and neither run nor cancelled. */
    int live() {
        return heap.size() - cancelledInHeap;
    }
}
