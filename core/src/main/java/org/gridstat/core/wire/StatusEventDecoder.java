package org.gridstat.core.wire;

import static org.gridstat.core.wire.ByteOrderViews.i32;
import static org.gridstat.core.wire.ByteOrderViews.i64;
import static org.gridstat.core.wire.ByteOrderViews.u16;
import static org.gridstat.core.wire.ByteOrderViews.u8;
import static org.gridstat.core.wire.WireFormat.*;

import java.nio.ByteBuffer;
import org.gridstat.core.model.ServiceClass;

/**
 * A flyweight over one received frame: {@link #wrap} validates the frame where it lies and the
 * accessors read fields in place. Nothing is copied or allocated. Not thread-safe: one decoder per
 * thread, reused for every frame. The accessors are meaningful only after a {@code wrap} that
 * returned {@link RejectReason#NONE}.
 */
public final class StatusEventDecoder {
    private final FrameChecksum checksum = new FrameChecksum();

    private ByteBuffer buffer;
    private int offset;
    private int frameLength;

    /**
     * Validates the frame of {@code length} bytes at {@code offset} in {@code buffer} and, if it is
     * valid, makes this decoder read it.
     *
     * @return {@link RejectReason#NONE} for a valid frame, otherwise why it is rejected
     */
    public RejectReason wrap(ByteBuffer buffer, int offset, int length) {
        this.buffer = null;
        if (length < HEADER_LENGTH) {
            return RejectReason.TRUNCATED;
        }
        if (length > MAX_FRAME_LENGTH) {
            return RejectReason.OVERSIZE;
        }
        if (offset < 0 || offset + length > buffer.limit()) {
            throw new IndexOutOfBoundsException("frame [" + offset + ", " + (offset + length)
                    + ") lies outside the buffer's limit " + buffer.limit());
        }
        if (u16(buffer, offset + MAGIC_OFFSET) != MAGIC) {
            return RejectReason.BAD_MAGIC;
        }
        if (u8(buffer, offset + VERSION_OFFSET) != VERSION) {
            return RejectReason.UNSUPPORTED_VERSION;
        }
        if (u8(buffer, offset + FRAME_TYPE_OFFSET) != FRAME_TYPE_STATUS_EVENT) {
            return RejectReason.UNKNOWN_FRAME_TYPE;
        }
        if (u8(buffer, offset + FLAGS_OFFSET) != 0) {
            return RejectReason.RESERVED_BITS_SET;
        }
        int payloadLength = u16(buffer, offset + PAYLOAD_LENGTH_OFFSET);
        if (HEADER_LENGTH + payloadLength != length) {
            return RejectReason.LENGTH_MISMATCH;
        }
        if (checksum.compute(buffer, offset, payloadLength) != i32(buffer, offset + CHECKSUM_OFFSET)) {
            return RejectReason.CHECKSUM_MISMATCH;
        }
        if (ServiceClass.fromCode(u8(buffer, offset + SERVICE_CLASS_OFFSET)) == null) {
            return RejectReason.BAD_SERVICE_CLASS;
        }
        PayloadType type = PayloadType.fromCode(u8(buffer, offset + PAYLOAD_TYPE_OFFSET));
        if (type == null) {
            return RejectReason.BAD_PAYLOAD_TYPE;
        }
        if ((type == PayloadType.DOUBLE && payloadLength != Double.BYTES)
                || (type == PayloadType.FLOAT_VECTOR && payloadLength % Float.BYTES != 0)) {
            return RejectReason.BAD_PAYLOAD_LENGTH;
        }
        this.buffer = buffer;
        this.offset = offset;
        this.frameLength = length;
        return RejectReason.NONE;
    }

    /** The buffer of the current frame. */
    public ByteBuffer buffer() {
        return buffer;
    }

    /** Index of the frame's first byte in {@link #buffer()}. */
    public int offset() {
        return offset;
    }

    public int frameLength() {
        return frameLength;
    }

    public ServiceClass serviceClass() {
        return ServiceClass.fromCode(u8(buffer, offset + SERVICE_CLASS_OFFSET));
    }

    public int hopCount() {
        return u8(buffer, offset + HOP_COUNT_OFFSET);
    }

    public int pathId() {
        return u16(buffer, offset + PATH_ID_OFFSET);
    }

    public long variableId() {
        return i64(buffer, offset + VARIABLE_ID_OFFSET);
    }

    public long sequence() {
        return i64(buffer, offset + SEQUENCE_OFFSET);
    }

    /** Source timestamp, ns since the epoch. */
    public long sourceTimeNanos() {
        return i64(buffer, offset + SOURCE_TIME_OFFSET);
    }

    /** Absolute end-to-end deadline, ns since the epoch, or {@link WireFormat#NO_DEADLINE}. */
    public long deadlineNanos() {
        return i64(buffer, offset + DEADLINE_OFFSET);
    }

    public PayloadType payloadType() {
        return PayloadType.fromCode(u8(buffer, offset + PAYLOAD_TYPE_OFFSET));
    }

    public int payloadLength() {
        return frameLength - HEADER_LENGTH;
    }

    /** Index of the payload's first byte in {@link #buffer()}. */
    public int payloadOffset() {
        return offset + HEADER_LENGTH;
    }

    /**
     * The value of a {@link PayloadType#DOUBLE} payload.
     *
     * @throws IllegalStateException if the payload is of another type
     */
    public double doubleValue() {
        requireType(PayloadType.DOUBLE);
        return Double.longBitsToDouble(i64(buffer, payloadOffset()));
    }

    /** Number of floats in a {@link PayloadType#FLOAT_VECTOR} payload. */
    public int floatCount() {
        requireType(PayloadType.FLOAT_VECTOR);
        return payloadLength() / Float.BYTES;
    }

    public float floatAt(int index) {
        if (index < 0 || index >= floatCount()) {
            throw new IndexOutOfBoundsException("float " + index + " of " + floatCount());
        }
        return Float.intBitsToFloat(i32(buffer, payloadOffset() + index * Float.BYTES));
    }

    /** Copies the payload bytes into {@code dst} at {@code dstOffset}; returns how many. */
    public int copyPayload(byte[] dst, int dstOffset) {
        int n = payloadLength();
        if (dstOffset < 0 || dstOffset + n > dst.length) {
            throw new IndexOutOfBoundsException("payload of " + n + " bytes does not fit at " + dstOffset
                    + " in an array of " + dst.length);
        }
        buffer.get(payloadOffset(), dst, dstOffset, n);
        return n;
    }

    private void requireType(PayloadType expected) {
        PayloadType actual = payloadType();
        if (actual != expected) {
            throw new IllegalStateException("payload is " + actual + ", not " + expected);
        }
    }
}
