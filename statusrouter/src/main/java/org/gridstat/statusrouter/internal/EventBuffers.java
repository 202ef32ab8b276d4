package org.gridstat.statusrouter.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledUnsafeDirectByteBuf;
import org.gridstat.core.wire.WireFormat;

/**
 * The data path's own buffers for events: a free list per size, on the data-path thread only. An
 * event's buffer is taken when it is forwarded and comes back when its last reference is released
 * (sent, dropped, or copied into a batch), which happens on the same thread, so neither taking nor
 * giving back needs an atomic operation; Netty's pooled allocator, which is built for buffers that
 * cross threads, spent a quarter of a busy router's time doing that per event. A buffer released
 * on another thread, or beyond what a list keeps, is freed instead; a kept buffer stays released
 * (reference count 0) until it is taken, so a use after release still fails loudly.
 */
final class EventBuffers {
    /** Buffer sizes, each a list: a 56-byte double event and a 1,472-byte one do not take the same. */
    private static final int[] SIZES = {128, 320, 640, WireFormat.MAX_FRAME_LENGTH};
    /** Buffers each list keeps: above the events a router holds queued, far below what would matter in memory. */
    static final int KEPT = 16_384;

    private final Thread owner;
    private final EventBuffer[][] free = new EventBuffer[SIZES.length][];
    private final int[] count = new int[SIZES.length];
    private long made;

    /** Buffers for the calling thread: call it on the data-path thread. */
    EventBuffers() {
        this.owner = Thread.currentThread();
        for (int i = 0; i < SIZES.length; i++) {
            free[i] = new EventBuffer[KEPT]; // whole at once: a list that grew on a new peak would allocate on the data path
        }
    }

    /** A buffer for an event of {@code length} bytes, empty, holding one reference. */
    ByteBuf take(int length) {
        int size = sizeIndex(length);
        if (count[size] == 0) {
            made++;
            return new EventBuffer(this, size, SIZES[size]);
        }
        EventBuffer b = free[size][--count[size]];
        free[size][count[size]] = null;
        b.reuse();
        return b;
    }

    /** Frees every kept buffer's memory; when the data path stops, on its thread. */
    void freeAll() {
        for (int size = 0; size < SIZES.length; size++) {
            for (int i = 0; i < count[size]; i++) {
                free[size][i].freeMemory();
                free[size][i] = null;
            }
            count[size] = 0;
        }
    }

    /** Buffers made so far: once a router is warm, this stops growing. */
    long made() {
        return made;
    }

    private static int sizeIndex(int length) {
        for (int i = 0; i < SIZES.length; i++) {
            if (length <= SIZES[i]) {
                return i;
            }
        }
        throw new IllegalArgumentException("an event of " + length + " bytes is longer than any frame");
    }

    /** From {@link EventBuffer#deallocate}: keeps the buffer for the next event, or frees it. */
    private boolean keep(EventBuffer b) {
        if (Thread.currentThread() != owner) {
            return false;
        }
        int size = b.size;
        if (count[size] == KEPT) {
            return false;
        }
        free[size][count[size]++] = b;
        return true;
    }

    /** A direct buffer that goes back to its list when released instead of being freed. */
    private static final class EventBuffer extends UnpooledUnsafeDirectByteBuf {
        private final EventBuffers home;
        private final int size;

        EventBuffer(EventBuffers home, int size, int capacity) {
            super(UnpooledByteBufAllocator.DEFAULT, capacity, capacity);
            this.home = home;
            this.size = size;
        }

        /**
         * Kept with a reference count of 0, as a released buffer: a late access or a second
         * release throws, as Netty's own buffers do, instead of reaching the next event's bytes.
         */
        @Override
        protected void deallocate() {
            if (!home.keep(this)) {
                super.deallocate();
            }
        }

        /** Taken again: one reference, empty. */
        void reuse() {
            resetRefCnt();
            clear();
        }

        void freeMemory() {
            super.deallocate();
        }
    }
}
