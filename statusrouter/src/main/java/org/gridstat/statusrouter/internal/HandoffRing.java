package org.gridstat.statusrouter.internal;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.core.wire.WireFormat;

/**
 * Validated frames on their way from one ingress loop to the data-path loop: a bounded
 * single-producer, single-consumer ring of frame-sized slots, allocated once. Frames cross as bytes,
 * not as pooled buffers: a pooled buffer taken on one thread and released on another returns
 * through queues that allocate, so the data-path loop makes the buffer itself.
 */
final class HandoffRing {
    /** Receives the frames {@link #drain} takes: {@code length} bytes at {@code offset} in {@code slots}. */
    interface FrameSink {
        void accept(byte[] slots, int offset, int length);
    }

    private static final int SLOT = WireFormat.MAX_FRAME_LENGTH;

    private final byte[] slots;
    private final int[] lengths;
    private final int mask;
    private final AtomicLong tail = new AtomicLong(); // next slot the producer fills
    private final AtomicLong head = new AtomicLong(); // next slot the consumer takes

    /** @param capacity frames it holds, a power of two */
    HandoffRing(int capacity) {
        if (capacity < 1 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two, got " + capacity);
        }
        this.slots = new byte[capacity * SLOT];
        this.lengths = new int[capacity];
        this.mask = capacity - 1;
    }

    /** Producer only: copies the frame of {@code length} bytes at index 0 of {@code frame}; false if full. */
    boolean offer(ByteBuffer frame, int length) {
        return offer(frame, 0, length);
    }

    /** Producer only: copies the frame of {@code length} bytes at {@code offset} in {@code frame}; false if full. */
    boolean offer(ByteBuffer frame, int offset, int length) {
        long t = tail.get();
        if (t - head.get() > mask) {
            return false;
        }
        int slot = (int) (t & mask);
        frame.get(offset, slots, slot * SLOT, length);
        lengths[slot] = length;
        tail.lazySet(t + 1); // publishes the slot's bytes with it
        return true;
    }

    /** Frames taken by the consumer so far; from any thread. */
    long taken() {
        return head.get();
    }

    /** Consumer only: hands every frame queued so far to {@code sink}, in order; returns how many. */
    int drain(FrameSink sink) {
        long h = head.get();
        long t = tail.get();
        for (long i = h; i < t; i++) {
            int slot = (int) (i & mask);
            sink.accept(slots, slot * SLOT, lengths[slot]);
            head.lazySet(i + 1); // the slot may be refilled
        }
        return (int) (t - h);
    }
}
