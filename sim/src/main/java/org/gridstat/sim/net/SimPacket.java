package org.gridstat.sim.net;

import java.nio.ByteBuffer;

/**
 * One status event inside a simulated router: the bytes of its frame, exactly as the wire carries
 * them (a router's ingress validated and stamped them with core's own codec), or, for an
 * <em>opaque</em> datagram, only its size and the variable it is routed by: a datagram of another
 * protocol (a C37.118 frame over UDP, cross traffic) that the status-event format cannot carry,
 * which the router's scheduler queues and paces as one unit.
 *
 * <p>Copies queued on several out-links share the instance; {@link #references} counts them so the
 * simulation knows what is still in flight.
 */
public final class SimPacket {
    /** The frame, from position 0 to its length; {@code null} for an opaque datagram. */
    final ByteBuffer frame;
    /** Frame bytes, or the opaque datagram's UDP payload bytes. */
    final int length;
    final long variableId;
    final long sequence;
    final long sourceTimeNanos;
    /** End-to-end deadline on the epoch scale, 0 for none. */
    final long deadlineNanos;
    int references;

    private SimPacket(ByteBuffer frame, int length, long variableId, long sequence, long sourceTimeNanos, long deadlineNanos) {
        this.frame = frame;
        this.length = length;
        this.variableId = variableId;
        this.sequence = sequence;
        this.sourceTimeNanos = sourceTimeNanos;
        this.deadlineNanos = deadlineNanos;
    }

    /** A status event whose frame is {@code length} bytes of {@code frame} from position 0 (taken, not copied). */
    public static SimPacket frame(ByteBuffer frame, int length, long variableId, long sequence, long sourceTimeNanos,
                                  long deadlineNanos) {
        return new SimPacket(frame, length, variableId, sequence, sourceTimeNanos, deadlineNanos);
    }

    /** An opaque datagram of {@code bytes} UDP payload bytes, routed as variable {@code variableId}. */
    public static SimPacket opaque(int bytes, long variableId, long sequence, long sourceTimeNanos, long deadlineNanos) {
        if (bytes < 1) {
            throw new IllegalArgumentException("a datagram carries at least one byte, got " + bytes);
        }
        return new SimPacket(null, bytes, variableId, sequence, sourceTimeNanos, deadlineNanos);
    }

    public boolean opaque() {
        return frame == null;
    }

    public int length() {
        return length;
    }

    public long variableId() {
        return variableId;
    }

    public long sequence() {
        return sequence;
    }

    public long sourceTimeNanos() {
        return sourceTimeNanos;
    }

    public long deadlineNanos() {
        return deadlineNanos;
    }
}
