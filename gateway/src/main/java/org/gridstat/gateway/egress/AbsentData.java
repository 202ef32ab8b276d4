package org.gridstat.gateway.egress;

import java.nio.ByteBuffer;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.PmuConfig;
import org.gridstat.gateway.c37118.data.DataFrameWriter;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.frame.Bytes;

/**
 * The block of a PMU whose sample did not arrive in time, as C37.118.2-2011 marks absent data:
 * STAT data error bits 15-14 = 10 ("absent data tags inserted, do not use values") and every other
 * STAT bit 0 (in particular bit 10, configuration change, and bits 8-6, time quality: nothing is
 * claimed); every float value NaN; every 16-bit value 0x8000, the "missing" integer, digital words
 * included (a bit mask has no missing value, and STAT already says not to use them).
 */
public final class AbsentData {
    /** STAT of an absent PMU. */
    public static final int STAT = 0x8000;
    public static final int MISSING_INTEGER = 0x8000;
    public static final int MISSING_FLOAT = Float.floatToRawIntBits(Float.NaN);

    private AbsentData() {
    }

    /** Writes an absent block for a PMU of this FORMAT and counts at {@code at}; answers its length. */
    public static int write(DataFormat format, int phasors, int analogs, int digitals, ByteBuffer dst, int at) {
        int p = at;
        Bytes.put16(dst, p, STAT);
        p += 2;
        for (int i = 0; i < 2 * phasors; i++) {
            p = missing(dst, p, format.floatPhasors());
        }
        p = missing(dst, p, format.floatFrequency());
        p = missing(dst, p, format.floatFrequency());
        for (int i = 0; i < analogs; i++) {
            p = missing(dst, p, format.floatAnalogs());
        }
        for (int i = 0; i < digitals; i++) {
            p = missing(dst, p, false);
        }
        return p - at;
    }

    public static int write(PmuConfig pmu, ByteBuffer dst, int at) {
        return write(pmu.format(), pmu.phasorCount(), pmu.analogCount(), pmu.digitalCount(), dst, at);
    }

    /** Writes {@code pmu} of the frame a writer is filling as absent. */
    public static void write(DataFrameWriter writer, DataLayout layout, int pmu) {
        DataFormat f = layout.format(pmu);
        writer.stat(pmu, STAT);
        int phasor = f.floatPhasors() ? MISSING_FLOAT : MISSING_INTEGER;
        for (int i = 0; i < layout.phasorCount(pmu); i++) {
            writer.phasor(pmu, i, phasor, phasor);
        }
        int frequency = f.floatFrequency() ? MISSING_FLOAT : MISSING_INTEGER;
        writer.frequency(pmu, frequency).rocof(pmu, frequency);
        int analog = f.floatAnalogs() ? MISSING_FLOAT : MISSING_INTEGER;
        for (int i = 0; i < layout.analogCount(pmu); i++) {
            writer.analog(pmu, i, analog);
        }
        for (int i = 0; i < layout.digitalCount(pmu); i++) {
            writer.digital(pmu, i, MISSING_INTEGER);
        }
    }

    private static int missing(ByteBuffer dst, int p, boolean wide) {
        if (wide) {
            Bytes.put32(dst, p, MISSING_FLOAT);
            return p + 4;
        }
        Bytes.put16(dst, p, MISSING_INTEGER);
        return p + 2;
    }
}
