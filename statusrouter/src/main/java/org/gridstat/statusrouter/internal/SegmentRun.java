package org.gridstat.statusrouter.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * The datagrams one socket of an out-link (a lane) has ready in a flush that can leave as one
 * segmented send: consecutive datagrams of one length, the last maybe shorter, within what the
 * kernel takes in one send. The kernel cuts them apart again below the socket, so the run pays the
 * per-send cost of the stack (the system call's share, the route, the socket's locks and
 * accounting) once instead of per datagram. A run holds only what its flush already has: it is
 * sent when the next datagram cannot join it, when it is full, and at the flush.
 *
 * <p>A run of one datagram is sent as that datagram. Two or more lie back to back in one pooled
 * buffer, which grows as the run does.
 */
final class SegmentRun {
    /**
     * The most datagrams in one segmented send: the kernel's UDP_MAX_SEGMENTS (64; 128 on kernels
     * since 2024), the lower one so that every kernel with UDP_SEGMENT takes it.
     */
    static final int MAX_SEGMENTS = 64;
    /** The most bytes in one segmented send: it is one UDP datagram until the kernel cuts it (IPv4's largest payload). */
    static final int MAX_BYTES = 65_507;
    /** Room for this many datagrams when a run's buffer is made; it grows from there. */
    private static final int FIRST_ROOM = 8;

    /** Where a run goes: a lone datagram, or several as one segmented send; each takes over the buffer. */
    interface Sink {
        void send(ByteBuf datagram);

        void sendSegments(ByteBuf segments, int segmentSize);
    }

    private final ByteBufAllocator allocator;
    /** The run's only datagram, as it was built; {@code null} once others joined it. */
    private ByteBuf first;
    /** Two or more datagrams back to back. */
    private ByteBuf joined;
    private int segmentSize;
    private int segments;
    private int bytes;
    /** A shorter datagram ended the run. */
    private boolean ended;

    SegmentRun(ByteBufAllocator allocator) {
        this.allocator = allocator;
    }

    boolean isEmpty() {
        return segments == 0;
    }

    /** Whether a datagram of {@code length} bytes may join the run: not longer than its first, within the limits. */
    boolean takes(int length) {
        return segments > 0 && !ended && length <= segmentSize && segments < MAX_SEGMENTS && bytes + length <= MAX_BYTES;
    }

    /** Starts the run with {@code datagram}, taking over the caller's reference; the run must be empty. */
    void start(ByteBuf datagram) {
        first = datagram;
        segmentSize = datagram.readableBytes();
        segments = 1;
        bytes = segmentSize;
    }

    /**
     * Makes room for the next datagram, of {@code length} bytes, which {@link #takes} it: the
     * caller writes exactly that many bytes into the returned buffer at its writer index.
     */
    ByteBuf extend(int length) {
        if (joined == null) {
            int room = Math.min(MAX_BYTES, Math.max(2, Math.min(FIRST_ROOM, MAX_BYTES / segmentSize)) * segmentSize);
            joined = allocator.directBuffer(room, MAX_BYTES);
            joined.writeBytes(first, first.readerIndex(), segmentSize);
            first.release();
            first = null;
        }
        segments++;
        bytes += length;
        ended = length < segmentSize;
        return joined;
    }

    /** Whether nothing more can join the run. */
    boolean full() {
        return segments > 0 && (ended || segments == MAX_SEGMENTS || bytes + segmentSize > MAX_BYTES);
    }

    /** Sends the run to {@code sink}, if it holds anything, and empties it. */
    void sendTo(Sink sink) {
        if (segments == 0) {
            return;
        }
        ByteBuf one = first;
        ByteBuf all = joined;
        int size = segmentSize;
        clear();
        if (all == null) {
            sink.send(one);
        } else {
            sink.sendSegments(all, size);
        }
    }

    /** Gives back what the run holds, unsent; when the link closes. */
    void discard() {
        if (first != null) {
            first.release();
        }
        if (joined != null) {
            joined.release();
        }
        clear();
    }

    private void clear() {
        first = null;
        joined = null;
        segments = 0;
        bytes = 0;
        segmentSize = 0;
        ended = false;
    }
}
