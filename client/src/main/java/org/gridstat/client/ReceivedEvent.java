package org.gridstat.client;

import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.wire.PayloadType;
import org.gridstat.core.wire.StatusEventDecoder;

/**
 * A received status event, read in place from the receive buffer. Valid only during
 * {@link StatusEventListener#onEvent}; the subscriber reuses it for the next event.
 */
public final class ReceivedEvent {
    private final StatusEventDecoder frame;
    private long receiveTimeNanos;

    ReceivedEvent(StatusEventDecoder frame) {
        this.frame = frame;
    }

    void receivedAt(long nanos) {
        this.receiveTimeNanos = nanos;
    }

    public long variableId() {
        return frame.variableId();
    }

    public long sequence() {
        return frame.sequence();
    }

    /** When the value was sampled, ns since the epoch. */
    public long sourceTimeNanos() {
        return frame.sourceTimeNanos();
    }

    /** The absolute deadline, or 0 if the event has none. */
    public long deadlineNanos() {
        return frame.deadlineNanos();
    }

    /** When this subscriber received the event, ns since the epoch, by the subscriber's clock. */
    public long receiveTimeNanos() {
        return receiveTimeNanos;
    }

    /** Receive time minus source time. */
    public long latencyNanos() {
        return receiveTimeNanos - frame.sourceTimeNanos();
    }

    public ServiceClass serviceClass() {
        return frame.serviceClass();
    }

    /** Routers the event crossed. */
    public int hopCount() {
        return frame.hopCount();
    }

    public PayloadType payloadType() {
        return frame.payloadType();
    }

    /** @throws IllegalStateException if the payload is not a double */
    public double doubleValue() {
        return frame.doubleValue();
    }

    /** @throws IllegalStateException if the payload is not a float vector */
    public int floatCount() {
        return frame.floatCount();
    }

    public float floatAt(int index) {
        return frame.floatAt(index);
    }

    public int payloadLength() {
        return frame.payloadLength();
    }

    /** Copies the payload into {@code dst} at {@code offset}; returns the number of bytes. */
    public int copyPayload(byte[] dst, int offset) {
        return frame.copyPayload(dst, offset);
    }
}
