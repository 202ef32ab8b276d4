package org.gridstat.gateway.mapping;

import java.nio.ByteBuffer;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.data.DataFrameWriter;
import org.gridstat.gateway.c37118.frame.Bytes;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.TimeBase;

/**
 * A flyweight over one {@link PmuSample} payload where it lies: {@link #wrap} checks it, then the
 * accessors read the header in place and the block is copied out raw. Nothing is allocated per
 * sample (wrapping the same array again reuses its buffer); one view per thread, rewrapped for
 * each payload. Accessors are meaningful only after {@code wrap} answered {@link SampleReject#OK}.
 */
public final class PmuSampleView {
    private ByteBuffer buffer;
    private byte[] array;
    private ByteBuffer arrayBuffer;
    private int offset;
    private int length;

    /** Checks the payload of {@code length} bytes at {@code offset} and reads it until the next wrap. */
    public SampleReject wrap(ByteBuffer b, int offset, int length) {
        if (offset < 0 || length < 0 || offset > b.capacity() - length) {
            throw new IndexOutOfBoundsException(length + " bytes at " + offset + " in a buffer of " + b.capacity());
        }
        this.buffer = b;
        this.offset = offset;
        this.length = 0;
        if (length < PmuSample.HEADER_LENGTH) {
            return SampleReject.TOO_SHORT;
        }
        if (length > PmuSample.MAX_LENGTH) {
            return SampleReject.TOO_LONG;
        }
        if (Bytes.u8(b, offset) != PmuSample.KIND) {
            return SampleReject.UNKNOWN_KIND;
        }
        int version = Bytes.u8(b, offset + PmuSample.VERSION_OFFSET);
        if (version != CommonHeader.VERSION_2005 && version != CommonHeader.VERSION_2011) {
            return SampleReject.BAD_VERSION;
        }
        if (TimeBase.subdivision(Bytes.i32(b, offset + PmuSample.TIME_BASE_OFFSET)) == 0) {
            return SampleReject.ZERO_TIME_BASE;
        }
        long block = new DataFormat(Bytes.u16(b, offset + PmuSample.FORMAT_OFFSET)).pmuDataSize(
                Bytes.u16(b, offset + PmuSample.PHNMR_OFFSET), Bytes.u16(b, offset + PmuSample.ANNMR_OFFSET),
                Bytes.u16(b, offset + PmuSample.DGNMR_OFFSET));
        if (PmuSample.HEADER_LENGTH + block != length) {
            return SampleReject.LENGTH_MISMATCH;
        }
        this.length = length;
        return SampleReject.OK;
    }

    /** Byte-array form of {@link #wrap(ByteBuffer, int, int)}. */
    public SampleReject wrap(byte[] payload, int offset, int length) {
        if (payload != array) {
            array = payload;
            arrayBuffer = ByteBuffer.wrap(payload);
        }
        return wrap(arrayBuffer, offset, length);
    }

    /** The whole payload's size; 0 when the last wrap was refused. */
    public int length() {
        return length;
    }

    public ByteBuffer buffer() {
        return buffer;
    }

    public int offset() {
        return offset;
    }

    /** The C37.118 version (1 or 2) of the frame the sample came in. */
    public int version() {
        return Bytes.u8(buffer, offset + PmuSample.VERSION_OFFSET);
    }

    public int configCount() {
        return Bytes.u16(buffer, offset + PmuSample.CFGCNT_OFFSET);
    }

    /** The raw TIME_BASE word (flags and subdivision). */
    public int timeBase() {
        return Bytes.i32(buffer, offset + PmuSample.TIME_BASE_OFFSET);
    }

    public long soc() {
        return Bytes.u32(buffer, offset + PmuSample.SOC_OFFSET);
    }

    /** The raw FRACSEC word (time quality byte and fraction). */
    public int fracSec() {
        return Bytes.i32(buffer, offset + PmuSample.FRACSEC_OFFSET);
    }

    public int idCode() {
        return Bytes.u16(buffer, offset + PmuSample.IDCODE_OFFSET);
    }

    /** The raw FORMAT word. */
    public int format() {
        return Bytes.u16(buffer, offset + PmuSample.FORMAT_OFFSET);
    }

    public int phasorCount() {
        return Bytes.u16(buffer, offset + PmuSample.PHNMR_OFFSET);
    }

    public int analogCount() {
        return Bytes.u16(buffer, offset + PmuSample.ANNMR_OFFSET);
    }

    public int digitalCount() {
        return Bytes.u16(buffer, offset + PmuSample.DGNMR_OFFSET);
    }

    /** The PMU's STAT word, the block's first field. */
    public int stat() {
        return Bytes.u16(buffer, blockOffset());
    }

    /** Where the block starts in {@link #buffer()}. */
    public int blockOffset() {
        return offset + PmuSample.HEADER_LENGTH;
    }

    public int blockLength() {
        return length - PmuSample.HEADER_LENGTH;
    }

    /** Epoch nanoseconds of the sample, rounded (see {@link PmuSample#sourceTimeNanos}). */
    public long sourceTimeNanos() {
        return PmuSample.sourceTimeNanos(soc(), fracSec(), timeBase());
    }

    /** Whether the block is laid out as a configuration's PMU of this FORMAT and these counts. */
    public boolean hasShape(int format, int phasors, int analogs, int digitals) {
        return format() == (format & 0xFFFF) && phasorCount() == phasors && analogCount() == analogs
                && digitalCount() == digitals;
    }

    /** Copies the block, byte for byte, to {@code at} in {@code dst}; answers its length. */
    public int copyBlockTo(ByteBuffer dst, int at) {
        dst.put(at, buffer, blockOffset(), blockLength());
        return blockLength();
    }

    /**
     * Writes the block into {@code pmu} of the frame a writer is filling, field by field and raw, so
     * the frame holds the same bytes. The writer's layout must give that PMU this sample's shape.
     */
    public void writeTo(DataFrameWriter writer, int pmu) {
        DataFormat f = new DataFormat(format());
        int at = blockOffset();
        writer.stat(pmu, Bytes.u16(buffer, at));
        at += 2;
        int phasorHalf = f.floatPhasors() ? 4 : 2;
        for (int i = 0, n = phasorCount(); i < n; i++) {
            writer.phasor(pmu, i, read(at, phasorHalf), read(at + phasorHalf, phasorHalf));
            at += 2 * phasorHalf;
        }
        int freq = f.frequencySize();
        writer.frequency(pmu, read(at, freq)).rocof(pmu, read(at + freq, freq));
        at += 2 * freq;
        for (int i = 0, n = analogCount(); i < n; i++) {
            writer.analog(pmu, i, read(at, f.analogSize()));
            at += f.analogSize();
        }
        for (int i = 0, n = digitalCount(); i < n; i++) {
            writer.digital(pmu, i, Bytes.u16(buffer, at));
            at += 2;
        }
    }

    private int read(int at, int size) {
        return size == 4 ? Bytes.i32(buffer, at) : Bytes.u16(buffer, at);
    }
}
