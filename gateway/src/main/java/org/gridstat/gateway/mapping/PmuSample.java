package org.gridstat.gateway.mapping;

import java.nio.ByteBuffer;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.data.DataFrameReader;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.frame.Bytes;
import org.gridstat.gateway.c37118.frame.FracSec;
import org.gridstat.gateway.c37118.frame.TimeBase;

/**
 * The payload of a PMU's data variable: one sample, readable without the configuration (the
 * header says how the block is laid out) and bit-exact (the block is the data frame's bytes).
 * Big-endian:
 *
 * <pre>
 *  0  1  kind = 1
 *  1  1  C37.118 version of the frame the sample came in (1 or 2)
 *  2  2  CFGCNT of the configuration in force
 *  4  4  TIME_BASE word, raw
 *  8  4  SOC
 * 12  4  FRACSEC word, raw (time quality byte, 24-bit fraction)
 * 16  2  the PMU's IDCODE
 * 18  2  FORMAT
 * 20  2  PHNMR   22  2  ANNMR   24  2  DGNMR
 * 26  n  the PMU's block as in the data frame: STAT, phasors, FREQ, DFREQ, analogs, digitals
 * </pre>
 *
 * where n is {@link DataFormat#pmuDataSize} (which counts STAT). Static; no allocation.
 */
public final class PmuSample {
    public static final int KIND = 1;
    public static final int HEADER_LENGTH = 26;
    /** A sample is one status-event payload. */
    public static final int MAX_LENGTH = WireFormat.MAX_PAYLOAD_LENGTH;

    static final int VERSION_OFFSET = 1;
    static final int CFGCNT_OFFSET = 2;
    static final int TIME_BASE_OFFSET = 4;
    static final int SOC_OFFSET = 8;
    static final int FRACSEC_OFFSET = 12;
    static final int IDCODE_OFFSET = 16;
    static final int FORMAT_OFFSET = 18;
    static final int PHNMR_OFFSET = 20;
    static final int ANNMR_OFFSET = 22;
    static final int DGNMR_OFFSET = 24;

    private PmuSample() {
    }

    /** The sample's size for a PMU of a layout; above {@link #MAX_LENGTH} it cannot be published. */
    public static long length(DataLayout layout, int pmu) {
        return HEADER_LENGTH + layout.format(pmu).pmuDataSize(layout.phasorCount(pmu), layout.analogCount(pmu),
                layout.digitalCount(pmu));
    }

    /** Whether the PMU's samples fit a payload: checked once when a configuration takes effect. */
    public static boolean fits(DataLayout layout, int pmu) {
        return length(layout, pmu) <= MAX_LENGTH;
    }

    /**
     * Writes the sample of {@code pmu} from a wrapped data frame at {@code offset}; answers its size.
     *
     * @throws IllegalArgumentException if the sample exceeds the payload limit (see {@link #fits}):
     *         the configuration, not the frame, is at fault, so the ingest checks it once
     * @throws IndexOutOfBoundsException if {@code dst} has no room for it
     */
    public static int encode(DataFrameReader frame, int pmu, int configCount, ByteBuffer dst, int offset) {
        DataLayout layout = frame.layout();
        long length = length(layout, pmu);
        if (length > MAX_LENGTH) {
            throw new IllegalArgumentException("PMU " + layout.pmuIdCode(pmu) + "'s sample of " + length
                    + " bytes exceeds the " + MAX_LENGTH + "-byte payload");
        }
        if (offset < 0 || dst.capacity() - offset < length) {
            throw new IndexOutOfBoundsException("no room for a " + length + "-byte sample at " + offset);
        }
        DataFormat format = layout.format(pmu);
        Bytes.put8(dst, offset, KIND);
        Bytes.put8(dst, offset + VERSION_OFFSET, frame.version());
        Bytes.put16(dst, offset + CFGCNT_OFFSET, configCount);
        Bytes.put32(dst, offset + TIME_BASE_OFFSET, layout.timeBase());
        Bytes.put32(dst, offset + SOC_OFFSET, (int) frame.soc());
        Bytes.put32(dst, offset + FRACSEC_OFFSET, frame.fracSec());
        Bytes.put16(dst, offset + IDCODE_OFFSET, layout.pmuIdCode(pmu));
        Bytes.put16(dst, offset + FORMAT_OFFSET, format.raw());
        Bytes.put16(dst, offset + PHNMR_OFFSET, layout.phasorCount(pmu));
        Bytes.put16(dst, offset + ANNMR_OFFSET, layout.analogCount(pmu));
        Bytes.put16(dst, offset + DGNMR_OFFSET, layout.digitalCount(pmu));
        int at = offset + HEADER_LENGTH;
        Bytes.put16(dst, at, frame.stat(pmu));
        at += 2;
        for (int i = 0, n = layout.phasorCount(pmu); i < n; i++) {
            at = put(dst, at, format.floatPhasors(), frame.phasorFirstRaw(pmu, i));
            at = put(dst, at, format.floatPhasors(), frame.phasorSecondRaw(pmu, i));
        }
        at = put(dst, at, format.floatFrequency(), frame.frequencyRaw(pmu));
        at = put(dst, at, format.floatFrequency(), frame.rocofRaw(pmu));
        for (int i = 0, n = layout.analogCount(pmu); i < n; i++) {
            at = put(dst, at, format.floatAnalogs(), frame.analogRaw(pmu, i));
        }
        for (int i = 0, n = layout.digitalCount(pmu); i < n; i++) {
            Bytes.put16(dst, at, frame.digital(pmu, i));
            at += 2;
        }
        return at - offset;
    }

    /** Byte-array form of {@link #encode(DataFrameReader, int, int, ByteBuffer, int)}. */
    public static int encode(DataFrameReader frame, int pmu, int configCount, byte[] dst, int offset) {
        return encode(frame, pmu, configCount, ByteBuffer.wrap(dst), offset);
    }

    private static int put(ByteBuffer dst, int at, boolean wide, int raw) {
        if (wide) {
            Bytes.put32(dst, at, raw);
            return at + 4;
        }
        Bytes.put16(dst, at, raw);
        return at + 2;
    }

    /**
     * The instant of SOC and FRACSEC under TIME_BASE in nanoseconds since the epoch, rounded to the
     * nearest nanosecond: the status event's own timestamp. The exact instant is the raw words the
     * payload carries. A fraction at or above the subdivision counts as the PMU sent it (a second or
     * more); a TIME_BASE of 0 counts no fraction.
     */
    public static long sourceTimeNanos(long soc, int fracSec, int timeBase) {
        long subdivision = TimeBase.subdivision(timeBase);
        long seconds = (soc & 0xFFFF_FFFFL) * 1_000_000_000L;
        if (subdivision == 0) {
            return seconds;
        }
        return seconds + (FracSec.fraction(fracSec) * 1_000_000_000L + subdivision / 2) / subdivision;
    }
}
