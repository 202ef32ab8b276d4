package org.gridstat.gateway.c37118.data;

import java.nio.ByteBuffer;
import org.gridstat.gateway.c37118.frame.Bytes;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.FrameType;

/**
 * Fills a data frame in place for a layout: {@link #wrap} writes the header, the setters write
 * values where the layout puts them, {@link #seal} writes the CRC. Raw setters take what
 * {@link DataFrameReader}'s raw getters give, so a frame copied field by field is bit-identical.
 * Fields not set keep what the buffer held. Nothing is allocated.
 */
public final class DataFrameWriter {
    private DataLayout layout;
    private ByteBuffer buffer;
    private int offset;

    /** Starts a frame at {@code offset}; the buffer needs {@link DataLayout#frameSize()} bytes there. */
    public DataFrameWriter wrap(DataLayout layout, ByteBuffer buffer, int offset, int version, long soc, int fracSec) {
        if (offset < 0 || buffer.capacity() - offset < layout.frameSize) {
            throw new IndexOutOfBoundsException("no room for a " + layout.frameSize + "-byte frame at " + offset);
        }
        this.layout = layout;
        this.buffer = buffer;
        this.offset = offset;
        CommonHeader.write(buffer, offset, FrameType.DATA, version, layout.frameSize, layout.idCode, soc, fracSec);
        return this;
    }

    public DataFrameWriter stat(int pmu, int stat) {
        Bytes.put16(buffer, offset + layout.statOffset[pmu], stat);
        return this;
    }

    /** Both halves of a phasor, raw: 16-bit words or float bit patterns as the format says. */
    public DataFrameWriter phasor(int pmu, int phasor, int firstRaw, int secondRaw) {
        if ((layout.format[pmu] & 2) != 0) {
            int at = offset + layout.phasorOffset[pmu] + 8 * phasor;
            Bytes.put32(buffer, at, firstRaw);
            Bytes.put32(buffer, at + 4, secondRaw);
        } else {
            int at = offset + layout.phasorOffset[pmu] + 4 * phasor;
            Bytes.put16(buffer, at, firstRaw);
            Bytes.put16(buffer, at + 2, secondRaw);
        }
        return this;
    }

    public DataFrameWriter frequency(int pmu, int raw) {
        return frequencyField(pmu, 0, raw);
    }

    public DataFrameWriter rocof(int pmu, int raw) {
        return frequencyField(pmu, 1, raw);
    }

    private DataFrameWriter frequencyField(int pmu, int which, int raw) {
        if ((layout.format[pmu] & 8) != 0) {
            Bytes.put32(buffer, offset + layout.frequencyOffset[pmu] + 4 * which, raw);
        } else {
            Bytes.put16(buffer, offset + layout.frequencyOffset[pmu] + 2 * which, raw);
        }
        return this;
    }

    /** Frequency in Hz: a float as is, an integer as the deviation from nominal in mHz. */
    public DataFrameWriter frequencyHz(int pmu, double hz) {
        if ((layout.format[pmu] & 8) != 0) {
            return frequency(pmu, Float.floatToRawIntBits((float) hz));
        }
        return frequency(pmu, clamp16(Math.round((hz - layout.nominalHz[pmu]) * 1000.0)));
    }

    /** ROCOF in Hz/s: a float as is, an integer as ROCOF × 100. */
    public DataFrameWriter rocofHzPerSecond(int pmu, double rocof) {
        if ((layout.format[pmu] & 8) != 0) {
            return rocof(pmu, Float.floatToRawIntBits((float) rocof));
        }
        return rocof(pmu, clamp16(Math.round(rocof * 100.0)));
    }

    private static int clamp16(long v) {
        return (int) Math.max(-32767, Math.min(32767, v));
    }

    public DataFrameWriter analog(int pmu, int analog, int raw) {
        if ((layout.format[pmu] & 4) != 0) {
            Bytes.put32(buffer, offset + layout.analogOffset[pmu] + 4 * analog, raw);
        } else {
            Bytes.put16(buffer, offset + layout.analogOffset[pmu] + 2 * analog, raw);
        }
        return this;
    }

    public DataFrameWriter digital(int pmu, int word, int value) {
        Bytes.put16(buffer, offset + layout.digitalOffset[pmu] + 2 * word, value);
        return this;
    }

    /** Writes the CRC; answers the frame's size. */
    public int seal() {
        CommonHeader.seal(buffer, offset, layout.frameSize);
        return layout.frameSize;
    }
}
