package org.gridstat.gateway.aggregate;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Reads the compact meter format from one connection's byte stream, one record per call to
 * {@link #next}, so the caller can stop between records (to pause a connection) and leave the rest
 * of its bytes unread. A flyweight: the last record's fields stay readable until the next call.
 *
 * <p>Memory is one buffer of {@link #BUFFER_LENGTH} bytes, whatever the input claims; nothing is
 * allocated per record and nothing is thrown on input. A byte that cannot start a record is
 * skipped; a candidate with an unknown type, a wrong length or a bad CRC-32C is refused and the
 * scan resumes one byte after its start, so a good record that began inside a damaged one is still
 * found. Skipped bytes are counted ({@link #bytesSkipped()}): the connection's garbage bound.
 * A whole record with a good checksum but refused content (version, kind, value, time) is
 * consumed whole. One decoder per connection, one thread at a time.
 */
public final class MeterDecoder {
    /** Two of the longest record: a partial record carried over plus room to complete it. */
    public static final int BUFFER_LENGTH = 2 * MeterFormat.LONGEST_RECORD;

    private final long aheadMicros;
    private final long behindMicros;
    private final byte[] buffer = new byte[BUFFER_LENGTH];
    private final ByteBuffer view = ByteBuffer.wrap(buffer);
    private final CRC32C crc = new CRC32C();
    private int start;
    private int end;
    private long bytesSkipped;
    // the last record's fields
    private long meterId;
    private int regionId;
    private long timeMicros;
    private int quality;
    private int kinds;
    private final float[] values = new float[ValueKind.values().length];

    /**
     * @param aheadNanos a reading stamped more than this after the clock given to {@link #next} is refused
     * @param behindNanos a reading stamped more than this before it is refused
     */
    public MeterDecoder(long aheadNanos, long behindNanos) {
        if (aheadNanos < 0 || behindNanos < 0) {
            throw new IllegalArgumentException("the time window's sides must not be negative: " + aheadNanos + ", " + behindNanos);
        }
        this.aheadMicros = aheadNanos / 1000;
        this.behindMicros = behindNanos / 1000;
    }

    /**
     * Takes bytes from {@code in} (advancing its position) until one record is whole, and reads it.
     * Bytes taken but not yet a whole record stay in the decoder for the next call.
     *
     * @param nowNanos the gateway's epoch clock, for the reading's time window
     * @return {@link DecodeOutcome#NEED_MORE} once {@code in} is used up without a whole record
     */
    public DecodeOutcome next(ByteBuffer in, long nowNanos) {
        for (;;) {
            while (start < end && buffer[start] != MeterFormat.MAGIC) {
                start++;
                bytesSkipped++;
            }
            if (end - start < MeterFormat.HEADER_LENGTH) {
                if (!fill(in)) {
                    return DecodeOutcome.NEED_MORE;
                }
                continue;
            }
            int length = MeterFormat.lengthOf(buffer[start + 1] & 0xFF);
            if (length < 0) {
                return skipOne(DecodeOutcome.UNKNOWN_TYPE);
            }
            if ((view.getShort(start + 2) & 0xFFFF) != length) {
                return skipOne(DecodeOutcome.BAD_LENGTH);
            }
            if (end - start < length) {
                if (!fill(in)) {
                    return DecodeOutcome.NEED_MORE;
                }
                continue;
            }
            crc.reset();
            crc.update(buffer, start, length - MeterFormat.CRC_LENGTH);
            if ((int) crc.getValue() != view.getInt(start + length - MeterFormat.CRC_LENGTH)) {
                return skipOne(DecodeOutcome.BAD_CHECKSUM);
            }
            int at = start;
            start += length;
            return length == MeterFormat.HELLO_LENGTH ? hello(at) : reading(at, nowNanos);
        }
    }

    private DecodeOutcome hello(int at) {
        if ((buffer[at + MeterFormat.HELLO_VERSION] & 0xFF) != MeterFormat.VERSION) {
            return DecodeOutcome.BAD_VERSION;
        }
        meterId = view.getInt(at + MeterFormat.HELLO_METER) & 0xFFFF_FFFFL;
        regionId = view.getShort(at + MeterFormat.HELLO_REGION) & 0xFFFF;
        return DecodeOutcome.HELLO;
    }

    private DecodeOutcome reading(int at, long nowNanos) {
        int k = buffer[at + MeterFormat.READING_KINDS] & 0xFF;
        if ((k & ~ValueKind.KNOWN_MASK) != 0) {
            return DecodeOutcome.UNKNOWN_KIND;
        }
        for (int i = 0; i < values.length; i++) {
            float v = view.getFloat(at + MeterFormat.READING_VALUES + 4 * i);
            if ((k & (1 << i)) != 0 && !Float.isFinite(v)) {
                return DecodeOutcome.BAD_VALUE;
            }
            values[i] = v;
        }
        long t = view.getLong(at + MeterFormat.READING_TIME);
        long nowMicros = Math.floorDiv(nowNanos, 1000);
        // compared in microseconds: any 64-bit stamp, however absurd, is compared without overflow
        if (t > nowMicros + aheadMicros) {
            return DecodeOutcome.TIME_AHEAD;
        }
        if (t < nowMicros - behindMicros) {
            return DecodeOutcome.TIME_BEHIND;
        }
        timeMicros = t;
        kinds = k;
        quality = buffer[at + MeterFormat.READING_QUALITY] & 0xFF;
        return DecodeOutcome.READING;
    }

    private DecodeOutcome skipOne(DecodeOutcome reason) {
        start++;
        bytesSkipped++;
        return reason;
    }

    /** Moves the unread bytes to the front and takes what fits from {@code in}; false if nothing came. */
    private boolean fill(ByteBuffer in) {
        if (!in.hasRemaining()) {
            return false;
        }
        if (start > 0) {
            System.arraycopy(buffer, start, buffer, 0, end - start);
            end -= start;
            start = 0;
        }
        int n = Math.min(in.remaining(), buffer.length - end);
        in.get(buffer, end, n);
        end += n;
        return true;
    }

    /** Bytes taken but not yet part of a whole record. */
    public int buffered() {
        return end - start;
    }

    /** Bytes skipped: not a record's start, or the first byte of a refused candidate. */
    public long bytesSkipped() {
        return bytesSkipped;
    }

    /** The last hello's meter id, unsigned 32 bits. */
    public long meterId() {
        return meterId;
    }

    /** The last hello's region id, 0 to 65,535. */
    public int regionId() {
        return regionId;
    }

    /** The last reading's time, microseconds since the epoch, within the window. */
    public long timeMicros() {
        return timeMicros;
    }

    /** The last reading's time in nanoseconds since the epoch. */
    public long timeNanos() {
        return timeMicros * 1000;
    }

    /** The last reading's quality byte. */
    public int quality() {
        return quality;
    }

    /** The last reading's {@link ValueKind} bits. */
    public int kinds() {
        return kinds;
    }

    /** The last reading's value of this kind (meaningful only if its bit is in {@link #kinds()}). */
    public float value(ValueKind kind) {
        return values[kind.ordinal()];
    }

    /** The last reading's values by kind ordinal, the decoder's own array: read it, do not keep it. */
    float[] values() {
        return values;
    }

    /** The last reading's value by kind ordinal. */
    public float value(int kindOrdinal) {
        return values[kindOrdinal];
    }
}
