package org.gridstat.core.wire;

import static org.gridstat.core.wire.ByteOrderViews.putI32;
import static org.gridstat.core.wire.ByteOrderViews.putI64;
import static org.gridstat.core.wire.ByteOrderViews.putU16;
import static org.gridstat.core.wire.ByteOrderViews.putU8;
import static org.gridstat.core.wire.ByteOrderViews.u16;
import static org.gridstat.core.wire.ByteOrderViews.u8;
import static org.gridstat.core.wire.WireFormat.*;

import java.nio.ByteBuffer;
import org.gridstat.core.model.ServiceClass;

/**
 * Writes a frame in place: wrap a buffer, set the fields and the payload, then {@link #seal()} to
 * write the checksum. A router uses {@link #wrapExisting} to change a forwarded frame's mutable
 * fields (hop count, path, deadline) and reseal it without copying. Not thread-safe; nothing is
 * allocated per frame.
 *
 * <p>Misuse by the local caller (a payload too large, a buffer too small) throws
 * {@link IllegalArgumentException}; frames from the network go through {@link StatusEventDecoder}.
 */
public final class StatusEventEncoder {
    private final FrameChecksum checksum = new FrameChecksum();

    private ByteBuffer buffer;
    private int offset;
    private int payloadLength;

    /** Starts a new frame at {@code offset}: magic, version and type are written, every other field is zero. */
    public StatusEventEncoder wrap(ByteBuffer buffer, int offset) {
        if (offset < 0 || offset + HEADER_LENGTH > buffer.capacity()) {
            throw new IllegalArgumentException("no room for a " + HEADER_LENGTH + "-byte header at " + offset
                    + " in a buffer of " + buffer.capacity());
        }
        this.buffer = buffer;
        this.offset = offset;
        this.payloadLength = 0;
        for (int i = 0; i < HEADER_LENGTH; i += Long.BYTES) {
            putI64(buffer, offset + i, 0L);
        }
        putU16(buffer, offset + MAGIC_OFFSET, MAGIC);
        putU8(buffer, offset + VERSION_OFFSET, VERSION);
        putU8(buffer, offset + FRAME_TYPE_OFFSET, FRAME_TYPE_STATUS_EVENT);
        putU8(buffer, offset + SERVICE_CLASS_OFFSET, ServiceClass.BE.code());
        return this;
    }

    /** Wraps a frame that a decoder has already accepted, to change its mutable fields and reseal it. */
    public StatusEventEncoder wrapExisting(ByteBuffer buffer, int offset) {
        this.buffer = buffer;
        this.offset = offset;
        this.payloadLength = u16(buffer, offset + PAYLOAD_LENGTH_OFFSET);
        return this;
    }

    public StatusEventEncoder serviceClass(ServiceClass serviceClass) {
        putU8(buffer, offset + SERVICE_CLASS_OFFSET, serviceClass.code());
        return this;
    }

    public StatusEventEncoder hopCount(int hops) {
        if (hops < 0 || hops > MAX_HOP_COUNT) {
            throw new IllegalArgumentException("hop count " + hops + " is outside 0.." + MAX_HOP_COUNT);
        }
        putU8(buffer, offset + HOP_COUNT_OFFSET, hops);
        return this;
    }

    /** The hop count of the wrapped frame. */
    public int hopCount() {
        return u8(buffer, offset + HOP_COUNT_OFFSET);
    }

    public StatusEventEncoder pathId(int pathId) {
        if (pathId < 0 || pathId > 0xFFFF) {
            throw new IllegalArgumentException("path id " + pathId + " is outside 0..65535");
        }
        putU16(buffer, offset + PATH_ID_OFFSET, pathId);
        return this;
    }

    public StatusEventEncoder variableId(long variableId) {
        putI64(buffer, offset + VARIABLE_ID_OFFSET, variableId);
        return this;
    }

    public StatusEventEncoder sequence(long sequence) {
        putI64(buffer, offset + SEQUENCE_OFFSET, sequence);
        return this;
    }

    public StatusEventEncoder sourceTimeNanos(long nanos) {
        putI64(buffer, offset + SOURCE_TIME_OFFSET, nanos);
        return this;
    }

    public StatusEventEncoder deadlineNanos(long nanos) {
        putI64(buffer, offset + DEADLINE_OFFSET, nanos);
        return this;
    }

    public StatusEventEncoder doublePayload(double value) {
        setPayload(PayloadType.DOUBLE, Double.BYTES);
        putI64(buffer, offset + HEADER_LENGTH, Double.doubleToRawLongBits(value));
        return this;
    }

    /** Writes the first {@code count} floats of {@code values}. */
    public StatusEventEncoder floatPayload(float[] values, int count) {
        if (count < 0 || count > values.length) {
            throw new IllegalArgumentException("count " + count + " is outside 0.." + values.length);
        }
        setPayload(PayloadType.FLOAT_VECTOR, count * Float.BYTES);
        int at = offset + HEADER_LENGTH;
        for (int i = 0; i < count; i++, at += Float.BYTES) {
            putI32(buffer, at, Float.floatToRawIntBits(values[i]));
        }
        return this;
    }

    public StatusEventEncoder rawPayload(byte[] src, int srcOffset, int length) {
        setPayload(PayloadType.RAW, length);
        buffer.put(offset + HEADER_LENGTH, src, srcOffset, length);
        return this;
    }

    /**
     * Declares a raw payload of {@code length} bytes that the caller writes itself, starting at
     * {@link #payloadOffset()}.
     */
    public StatusEventEncoder rawPayloadLength(int length) {
        setPayload(PayloadType.RAW, length);
        return this;
    }

    public int payloadOffset() {
        return offset + HEADER_LENGTH;
    }

    /** Writes the checksum; returns the frame length. Call after the last field is set. */
    public int seal() {
        putI32(buffer, offset + CHECKSUM_OFFSET, checksum.compute(buffer, offset, payloadLength));
        return HEADER_LENGTH + payloadLength;
    }

    private void setPayload(PayloadType type, int length) {
        if (length > MAX_PAYLOAD_LENGTH) {
            throw new IllegalArgumentException("payload of " + length + " bytes exceeds the largest of "
                    + MAX_PAYLOAD_LENGTH);
        }
        if (offset + HEADER_LENGTH + length > buffer.capacity()) {
            throw new IllegalArgumentException("payload of " + length + " bytes does not fit the buffer of "
                    + buffer.capacity() + " at " + offset);
        }
        putU8(buffer, offset + PAYLOAD_TYPE_OFFSET, type.code());
        putU16(buffer, offset + PAYLOAD_LENGTH_OFFSET, length);
        payloadLength = length;
    }
}
