package org.gridstat.gateway.egress;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Aligns the samples of an output stream's PMU slots by timestamp and releases one frame per
 * timestamp, in increasing timestamp order, on the caller's monotonic clock. Pure and single
 * threaded: the driver calls {@link #offer} as samples arrive and {@link #poll} at
 * {@link #nextDeadline()}; both hand what is due to a {@link ReleaseSink}.
 *
 * <p>Release. The oldest pending timestamp (the head) is released
 * <ul>
 * <li>at once when every slot's sample for it has arrived ({@link Release#COMPLETE}), or
 * <li>when {@code waitWindowNanos} have passed since it was reached ({@link Release#WINDOW_EXPIRED}):
 *     the missing slots are absent, each counted in {@link #missing(int)}, or
 * <li>early, when a sample of a new timestamp finds {@code maxPending} timestamps pending
 *     ({@link Release#EVICTED}): memory is bounded, and the oldest is the least likely to fill.
 * </ul>
 * Only the head is released, so a complete timestamp waits for every older pending one, each
 * until it completes or its own window ends; output never goes back in time.
 *
 * <p>Reached. A timestamp is reached when two slots have sent it or a later one, or every live
 * slot has if fewer than two are live. A slot is live while it has had a sample accepted within
 * {@code resyncNanos}; a slot not yet heard from counts as live for {@code resyncNanos} after the
 * aligner's first sample. Normally a timestamp is reached by its second sample, a moment after
 * the first, and its window runs from then. The rule is for a PMU whose clock runs ahead of the
 * others (within the horizon): its timestamps are not reached until the others get there, so they
 * do not expire early, jump the output ahead and make every other PMU's samples late; they are
 * released in their place in the order, joined by the others' samples when the offset is a whole
 * number of frames. With two slots, a lagging live slot holds frames the same way (with two
 * sources there is no telling which clock is wrong); a PMU that falls silent stops holding
 * anything {@code resyncNanos} after its last sample.
 *
 * <p>Refused samples, each counted ({@link #count(Offer)}): a sample for a timestamp at or before
 * the newest released one is {@link Offer#LATE} (releasing it would reorder the output); a second
 * sample for a slot and timestamp is a {@link Offer#DUPLICATE}; a sample larger than its slot's
 * capacity is {@link Offer#TOO_LARGE}.
 *
 * <p>A PMU with a wrong clock. A sample whose SOC is more than {@code horizonSeconds} after the
 * newest released timestamp's is {@link Offer#FAR_AHEAD} and dropped. Pending timestamps beyond
 * the horizon (accepted before the first release, when nothing is far ahead) are dropped at each
 * release, counted in {@link #droppedFarAhead()}. A PMU whose clock is behind only sends late
 * samples. If for {@code resyncNanos} every sample has been refused as late or far ahead and
 * nothing released, the sources' time has really moved (an outage, a clock stepped everywhere, a
 * wrong timestamp released at start): the aligner forgets the newest released timestamp, counts
 * a resync and takes the sample. A lone straggler after a quiet spell is still late. A slot ahead
 * within the horizon holds one pending timestamp per sample until the others reach it: {@code
 * maxPending} should cover the horizon's frames, or such a slot causes early releases (evictions)
 * rather than a stall.
 *
 * <p>Storage is preallocated: {@code maxPending} × the slots' sample capacities; offering and
 * releasing allocate nothing.
 */
public final class FrameAligner {
    /** What {@link #offer} did with a sample. */
    public enum Offer { ACCEPTED, LATE, DUPLICATE, FAR_AHEAD, TOO_LARGE }

    /** Why a frame was released. */
    public enum Release { COMPLETE, WINDOW_EXPIRED, EVICTED }

    /** Receives released frames; must not call back into the aligner. */
    @FunctionalInterface
    public interface ReleaseSink {
        void release(AlignedFrame frame);
    }

    private final int slots;
    private final int[] capacity;
    private final long window;
    private final int maxPending;
    private final long horizonSeconds;
    private final long resyncNanos;

    private final long[] key;
    /** When each entry was reached, its window's start; valid once reached. */
    private final long[] reachedAt;
    private final boolean[] reached;
    private final int[] presentCount;
    private final boolean[] present;
    private final int[] length;
    private final ByteBuffer[] bytes;
    /** Entries pending, by increasing key. */
    private final int[] order;
    private int size;
    private final int[] free;
    private int freeCount;

    private boolean released;
    private long newestReleased;
    /** The latest time offer or poll was called with, for nextDeadline. */
    private long nowSeen;
    private boolean started;
    private long startNanos;
    private boolean refusing;
    private long refusingSince;

    private final long[] offers = new long[Offer.values().length];
    private final long[] releases = new long[Release.values().length];
    private final long[] missing;
    /** Per slot: the newest timestamp accepted (valid once seen), when a sample was last accepted. */
    private final long[] front;
    private final long[] lastAccepted;
    private final boolean[] seen;
    private long dropped;
    private long resyncs;
    private final AlignedFrame frame = new AlignedFrame(this);

    /**
     * @param sampleCapacity the largest sample each slot takes (see {@code OutputFrameBuilder.sampleLengths})
     * @param waitWindowNanos how long a timestamp waits for its missing slots after its first sample
     * @param maxPending timestamps held at most
     * @param horizonSeconds how far after the newest released timestamp a sample may be
     * @param resyncNanos how long samples may be refused as late or far ahead, with nothing
     *        released, before the aligner takes them as the sources' new time
     */
    public FrameAligner(int[] sampleCapacity, long waitWindowNanos, int maxPending, int horizonSeconds, long resyncNanos) {
        if (sampleCapacity.length == 0 || maxPending < 1 || waitWindowNanos < 0 || horizonSeconds < 0 || resyncNanos < 0) {
            throw new IllegalArgumentException("one slot or more, one pending timestamp or more, no negative time");
        }
        this.slots = sampleCapacity.length;
        this.capacity = sampleCapacity.clone();
        this.window = waitWindowNanos;
        this.maxPending = maxPending;
        this.horizonSeconds = horizonSeconds;
        this.resyncNanos = resyncNanos;
        key = new long[maxPending];
        reachedAt = new long[maxPending];
        reached = new boolean[maxPending];
        presentCount = new int[maxPending];
        present = new boolean[maxPending * slots];
        length = new int[maxPending * slots];
        bytes = new ByteBuffer[maxPending * slots];
        for (int e = 0; e < maxPending; e++) {
            for (int s = 0; s < slots; s++) {
                bytes[e * slots + s] = ByteBuffer.allocate(capacity[s]);
            }
        }
        order = new int[maxPending];
        free = new int[maxPending];
        for (int e = 0; e < maxPending; e++) {
            free[freeCount++] = maxPending - 1 - e;
        }
        missing = new long[slots];
        front = new long[slots];
        lastAccepted = new long[slots];
        seen = new boolean[slots];
    }

    /**
     * Offers the sample of {@code slot} for the timestamp {@code timeKey} ({@link TimeKey}): the
     * {@code length} bytes at {@code offset} of {@code sample}, copied. Releases what is then due.
     */
    public Offer offer(int slot, long timeKey, ByteBuffer sample, int offset, int length, long nowNanos, ReleaseSink sink) {
        if (slot < 0 || slot >= slots) {
            throw new IndexOutOfBoundsException("slot " + slot + " of " + slots);
        }
        if (!started) {
            started = true;
            startNanos = nowNanos;
        }
        releaseDue(nowNanos, sink);
        Offer outcome = place(slot, timeKey, sample, offset, length, nowNanos, sink);
        offers[outcome.ordinal()]++;
        releaseDue(nowNanos, sink);
        return outcome;
    }

    private Offer place(int slot, long timeKey, ByteBuffer sample, int offset, int n, long now, ReleaseSink sink) {
        if (n > capacity[slot]) {
            return Offer.TOO_LARGE;
        }
        Offer refused = refusal(timeKey, now);
        if (refused != null) {
            return refused;
        }
        int at = find(timeKey);
        int e;
        if (at >= 0) {
            e = order[at];
            if (present[e * slots + slot]) {
                return Offer.DUPLICATE;
            }
        } else {
            if (size == maxPending) {
                release(Release.EVICTED, sink, now);
                if (released && timeKey <= newestReleased) {
                    return Offer.LATE;
                }
                at = find(timeKey);
            }
            e = insert(-at - 1, timeKey, now);
        }
        int i = e * slots + slot;
        sample.get(offset, bytes[i].array(), 0, n);
        length[i] = n;
        present[i] = true;
        presentCount[e]++;
        front[slot] = seen[slot] ? Math.max(front[slot], timeKey) : timeKey;
        seen[slot] = true;
        lastAccepted[slot] = now;
        return Offer.ACCEPTED;
    }

    /** LATE or FAR_AHEAD, or null to take the sample (resynchronising if refusals have lasted). */
    private Offer refusal(long timeKey, long now) {
        if (!released) {
            return null;
        }
        Offer refused = timeKey <= newestReleased ? Offer.LATE
                : TimeKey.soc(timeKey) - TimeKey.soc(newestReleased) > horizonSeconds ? Offer.FAR_AHEAD : null;
        if (refused == null) {
            return null;
        }
        if (!refusing) {
            refusing = true;
            refusingSince = now;
        } else if (now - refusingSince >= resyncNanos) {
            released = false;
            refusing = false;
            resyncs++;
            return null;
        }
        return refused;
    }

    /** Releases whatever is due at {@code nowNanos}. */
    public void poll(long nowNanos, ReleaseSink sink) {
        releaseDue(nowNanos, sink);
    }

    /**
     * When {@link #poll} next may have something to release if nothing arrives: the head's window
     * end once it is reached, before that when a live slot that has not reached it falls silent;
     * Long.MAX_VALUE if nothing is pending.
     */
    public long nextDeadline() {
        if (size == 0) {
            return Long.MAX_VALUE;
        }
        int head = order[0];
        if (reached[head]) {
            return reachedAt[head] + window;
        }
        long silent = Long.MAX_VALUE;
        for (int s = 0; s < slots; s++) {
            if (live(s, nowSeen) && !(seen[s] && front[s] >= key[head])) {
                silent = Math.min(silent, (seen[s] ? lastAccepted[s] : startNanos) + resyncNanos);
            }
        }
        return silent;
    }

    private void releaseDue(long now, ReleaseSink sink) {
        nowSeen = now;
        markReached(now);
        while (size > 0) {
            int head = order[0];
            if (presentCount[head] == slots) {
                release(Release.COMPLETE, sink, now);
            } else if (reached[head] && now - reachedAt[head] >= window) {
                release(Release.WINDOW_EXPIRED, sink, now);
            } else {
                return;
            }
        }
    }

    private boolean live(int slot, long now) {
        return now - (seen[slot] ? lastAccepted[slot] : startNanos) < resyncNanos;
    }

    /** Starts the window of every pending timestamp reached by now. */
    private void markReached(long now) {
        int live = 0;
        for (int s = 0; s < slots; s++) {
            live += live(s, now) ? 1 : 0;
        }
        int needed = Math.min(2, Math.max(1, live));
        for (int i = 0; i < size; i++) {
            int e = order[i];
            if (reached[e]) {
                continue;
            }
            int count = 0;
            for (int s = 0; s < slots; s++) {
                count += seen[s] && front[s] >= key[e] ? 1 : 0;
            }
            if (count < needed) {
                return; // a later timestamp has no more slots past it
            }
            reached[e] = true;
            reachedAt[e] = now;
        }
    }

    private void release(Release cause, ReleaseSink sink, long now) {
        int head = order[0];
        for (int s = 0; s < slots; s++) {
            if (!present[head * slots + s]) {
                missing[s]++;
            }
        }
        releases[cause.ordinal()]++;
        released = true;
        newestReleased = key[head];
        refusing = false;
        try {
            sink.release(frame.set(head, key[head], cause));
        } finally {
            remove(0);
            // Pending timestamps beyond the horizon came in before the first release, from a wrong clock.
            while (size > 0 && TimeKey.soc(key[order[size - 1]]) - TimeKey.soc(newestReleased) > horizonSeconds) {
                remove(size - 1);
                dropped++;
            }
        }
    }

    private int find(long timeKey) {
        int lo = 0;
        int hi = size - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long k = key[order[mid]];
            if (k < timeKey) {
                lo = mid + 1;
            } else if (k > timeKey) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -lo - 1;
    }

    private int insert(int at, long timeKey, long now) {
        int e = free[--freeCount];
        key[e] = timeKey;
        reached[e] = false;
        presentCount[e] = 0;
        Arrays.fill(present, e * slots, e * slots + slots, false);
        System.arraycopy(order, at, order, at + 1, size - at);
        order[at] = e;
        size++;
        return e;
    }

    private void remove(int at) {
        free[freeCount++] = order[at];
        System.arraycopy(order, at + 1, order, at, size - at - 1);
        size--;
    }

    int slotCount() {
        return slots;
    }

    boolean present(int entry, int slot) {
        return present[entry * slots + slot];
    }

    ByteBuffer sample(int entry, int slot) {
        int i = entry * slots + slot;
        return present[i] ? bytes[i].limit(length[i]).position(0) : null;
    }

    /** Timestamps pending. */
    public int pending() {
        return size;
    }

    public long count(Offer outcome) {
        return offers[outcome.ordinal()];
    }

    public long count(Release cause) {
        return releases[cause.ordinal()];
    }

    /** Frames released with this slot absent. */
    public long missing(int slot) {
        return missing[slot];
    }

    /** Pending timestamps dropped, after a release, for being beyond the horizon. */
    public long droppedFarAhead() {
        return dropped;
    }

    /** Times the aligner forgot the newest released timestamp and took the sources' new time. */
    public long resyncs() {
        return resyncs;
    }
}
