package org.gridstat.gateway.c37118.data;

import java.nio.ByteBuffer;
import org.gridstat.gateway.c37118.frame.Bytes;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.FracSec;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.c37118.frame.FrameType;

/**
 * A flyweight over one data frame where it lies: {@link #wrap} validates it against the layout of
 * the configuration in force, then the accessors read values in place. Nothing is allocated per
 * frame; one reader per thread, rewrapped for each frame.
 *
 * <p>Raw values are the fields as sent: a 16-bit field as its unsigned word (0-65535), a float
 * field as its 32-bit pattern. Writing them back with {@link DataFrameWriter} gives the same bytes.
 * Engineering values: phasors in volts or amperes and radians, frequency in Hz (an integer FREQ is
 * the deviation from nominal in mHz), ROCOF in Hz/s (an integer DFREQ is ROCOF × 100), analogs
 * scaled as {@link DataLayout} says, time as nanoseconds of the second.
 */
public final class DataFrameReader {
    private static final int POLAR = 1;
    private static final int FLOAT_PHASORS = 2;
    private static final int FLOAT_ANALOGS = 4;
    private static final int FLOAT_FREQUENCY = 8;

    private DataLayout layout;
    private ByteBuffer buffer;
    private int offset;

    /** Validates the frame of {@code length} bytes at {@code offset} and reads it until the next wrap. */
    public FrameReject wrap(DataLayout layout, ByteBuffer buffer, int offset, int length) {
        this.layout = null;
        FrameReject reject = CommonHeader.check(buffer, offset, length);
        if (reject != FrameReject.NONE) {
            return reject;
        }
        if (CommonHeader.type(buffer, offset) != FrameType.DATA) {
            return FrameReject.WRONG_FRAME_TYPE;
        }
        if (CommonHeader.idCode(buffer, offset) != layout.idCode) {
            return FrameReject.UNKNOWN_IDCODE;
        }
        if (length != layout.frameSize) {
            return FrameReject.LENGTH_MISMATCH;
        }
        this.layout = layout;
        this.buffer = buffer;
        this.offset = offset;
        return FrameReject.NONE;
    }

    /** The buffer that holds the frame wrapped: valid as long as its owner keeps the bytes there. */
    public ByteBuffer buffer() {
        return buffer;
    }

    /** Where the frame wrapped starts in {@link #buffer()}; it is {@code layout().frameSize()} bytes long. */
    public int offset() {
        return offset;
    }

    public int version() {
        return CommonHeader.version(buffer, offset);
    }

    public int idCode() {
        return CommonHeader.idCode(buffer, offset);
    }

    public long soc() {
        return CommonHeader.soc(buffer, offset);
    }

    /** The raw FRACSEC word: time quality byte and fraction (see {@code FracSec}). */
    public int fracSec() {
        return CommonHeader.fracSec(buffer, offset);
    }

    /** The fraction of the second in nanoseconds, from FRACSEC and the configuration's TIME_BASE. */
    public long fractionNanos() {
        return FracSec.nanos(fracSec(), layout.timeBase);
    }

    public int pmuCount() {
        return layout.pmuCount();
    }

    public DataLayout layout() {
        return layout;
    }

    /** The PMU's STAT word (see {@link StatWord}). */
    public int stat(int pmu) {
        return Bytes.u16(buffer, offset + layout.statOffset[pmu]);
    }

    /** Real part (rectangular) or magnitude (polar), raw. */
    public int phasorFirstRaw(int pmu, int phasor) {
        return phasorRaw(pmu, phasor, 0);
    }

    /** Imaginary part (rectangular) or angle (polar), raw. */
    public int phasorSecondRaw(int pmu, int phasor) {
        return phasorRaw(pmu, phasor, 1);
    }

    private int phasorRaw(int pmu, int phasor, int half) {
        if ((layout.format[pmu] & FLOAT_PHASORS) != 0) {
            return Bytes.i32(buffer, offset + layout.phasorOffset[pmu] + 8 * phasor + 4 * half);
        }
        return Bytes.u16(buffer, offset + layout.phasorOffset[pmu] + 4 * phasor + 2 * half);
    }

    /** Whether the PMU sends phasors as magnitude and angle. */
    public boolean polar(int pmu) {
        return (layout.format[pmu] & POLAR) != 0;
    }

    /** Magnitude in volts or amperes, scaled. */
    public double phasorMagnitude(int pmu, int phasor) {
        if (polar(pmu)) {
            return Math.abs(sentFirst(pmu, phasor) * layout.phasorScale[pmu][phasor]);
        }
        return Math.hypot(sentFirst(pmu, phasor), sentSecond(pmu, phasor)) * Math.abs(layout.phasorScale[pmu][phasor]);
    }

    /** Angle in radians, with the configuration's angle adjustment applied. */
    public double phasorAngle(int pmu, int phasor) {
        double angle = polar(pmu) ? sentSecond(pmu, phasor) : Math.atan2(sentSecond(pmu, phasor), sentFirst(pmu, phasor));
        return angle + layout.phasorAngle[pmu][phasor];
    }

    public double phasorReal(int pmu, int phasor) {
        if (polar(pmu) || layout.phasorAngle[pmu][phasor] != 0) {
            return scaledMagnitude(pmu, phasor) * Math.cos(phasorAngle(pmu, phasor));
        }
        return sentFirst(pmu, phasor) * layout.phasorScale[pmu][phasor];
    }

    public double phasorImaginary(int pmu, int phasor) {
        if (polar(pmu) || layout.phasorAngle[pmu][phasor] != 0) {
            return scaledMagnitude(pmu, phasor) * Math.sin(phasorAngle(pmu, phasor));
        }
        return sentSecond(pmu, phasor) * layout.phasorScale[pmu][phasor];
    }

    // A negative scale factor flips the phasor: kept signed here so real and imaginary follow it.
    private double scaledMagnitude(int pmu, int phasor) {
        double first = polar(pmu) ? sentFirst(pmu, phasor) : Math.hypot(sentFirst(pmu, phasor), sentSecond(pmu, phasor));
        return first * layout.phasorScale[pmu][phasor];
    }

    /** The first number as sent: float, unsigned magnitude (integer polar) or signed integer. */
    private double sentFirst(int pmu, int phasor) {
        int raw = phasorFirstRaw(pmu, phasor);
        int f = layout.format[pmu];
        if ((f & FLOAT_PHASORS) != 0) {
            return Float.intBitsToFloat(raw);
        }
        return (f & POLAR) != 0 ? raw : (short) raw;
    }

    /** The second number as sent; an integer angle is radians × 10^4. */
    private double sentSecond(int pmu, int phasor) {
        int raw = phasorSecondRaw(pmu, phasor);
        int f = layout.format[pmu];
        if ((f & FLOAT_PHASORS) != 0) {
            return Float.intBitsToFloat(raw);
        }
        return (f & POLAR) != 0 ? (short) raw / 1e4 : (short) raw;
    }

    public int frequencyRaw(int pmu) {
        return frequencyField(pmu, 0);
    }

    public int rocofRaw(int pmu) {
        return frequencyField(pmu, 1);
    }

    private int frequencyField(int pmu, int which) {
        if ((layout.format[pmu] & FLOAT_FREQUENCY) != 0) {
            return Bytes.i32(buffer, offset + layout.frequencyOffset[pmu] + 4 * which);
        }
        return Bytes.u16(buffer, offset + layout.frequencyOffset[pmu] + 2 * which);
    }

    /** Frequency in Hz. */
    public double frequency(int pmu) {
        int raw = frequencyRaw(pmu);
        if ((layout.format[pmu] & FLOAT_FREQUENCY) != 0) {
            return Float.intBitsToFloat(raw);
        }
        return layout.nominalHz[pmu] + (short) raw / 1000.0;
    }

    /** Rate of change of frequency in Hz/s. */
    public double rocof(int pmu) {
        int raw = rocofRaw(pmu);
        if ((layout.format[pmu] & FLOAT_FREQUENCY) != 0) {
            return Float.intBitsToFloat(raw);
        }
        return (short) raw / 100.0;
    }

    public int analogRaw(int pmu, int analog) {
        if ((layout.format[pmu] & FLOAT_ANALOGS) != 0) {
            return Bytes.i32(buffer, offset + layout.analogOffset[pmu] + 4 * analog);
        }
        return Bytes.u16(buffer, offset + layout.analogOffset[pmu] + 2 * analog);
    }

    public double analog(int pmu, int analog) {
        int raw = analogRaw(pmu, analog);
        double sent = (layout.format[pmu] & FLOAT_ANALOGS) != 0 ? Float.intBitsToFloat(raw) : (short) raw;
        return sent * layout.analogScale[pmu][analog] + layout.analogBias[pmu][analog];
    }

    /** A 16-bit digital status word. */
    public int digital(int pmu, int word) {
        return Bytes.u16(buffer, offset + layout.digitalOffset[pmu] + 2 * word);
    }
}
