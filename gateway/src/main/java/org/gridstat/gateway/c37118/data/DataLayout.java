package org.gridstat.gateway.c37118.data;

import java.util.List;
import org.gridstat.gateway.c37118.config.Config3Frame;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.Pmu3Config;
import org.gridstat.gateway.c37118.config.PmuConfig;
import org.gridstat.gateway.c37118.frame.CommonHeader;

/**
 * Where every value of a data frame lies, and how it scales, for one configuration: computed once
 * when a configuration takes effect so that reading a frame is index arithmetic. Immutable.
 *
 * <p>Scaling. From CFG-1/2: integer phasors times PHUNIT × 10^-5, float phasors as sent; integer
 * analogs times the ANUNIT factor, float analogs as sent. From CFG-3: every phasor times PHSCALE's
 * Y and turned by its θ, every analog M × value + B, whatever the number format.
 */
public final class DataLayout {
    final int idCode;
    final int frameSize;
    final int timeBase;
    final int[] format;
    /** The FORMAT words as records, made once: reading a frame allocates nothing. */
    final DataFormat[] formats;
    final int[] phasors;
    final int[] analogs;
    final int[] digitals;
    final int[] statOffset;
    final int[] phasorOffset;
    final int[] frequencyOffset;
    final int[] analogOffset;
    final int[] digitalOffset;
    final int[] nominalHz;
    final int[] pmuIdCode;
    final double[][] phasorScale;
    final double[][] phasorAngle;
    final double[][] analogScale;
    final double[][] analogBias;

    private DataLayout(int idCode, int timeBase, int pmuCount) {
        this.idCode = idCode;
        this.timeBase = timeBase;
        format = new int[pmuCount];
        phasors = new int[pmuCount];
        analogs = new int[pmuCount];
        digitals = new int[pmuCount];
        statOffset = new int[pmuCount];
        phasorOffset = new int[pmuCount];
        frequencyOffset = new int[pmuCount];
        analogOffset = new int[pmuCount];
        digitalOffset = new int[pmuCount];
        nominalHz = new int[pmuCount];
        pmuIdCode = new int[pmuCount];
        phasorScale = new double[pmuCount][];
        phasorAngle = new double[pmuCount][];
        analogScale = new double[pmuCount][];
        analogBias = new double[pmuCount][];
        frameSize = 0;
        formats = null; // the shape under construction; finish() makes the layout that has them
    }

    private DataLayout(DataLayout shape, int frameSize) {
        idCode = shape.idCode;
        timeBase = shape.timeBase;
        format = shape.format;
        phasors = shape.phasors;
        analogs = shape.analogs;
        digitals = shape.digitals;
        statOffset = shape.statOffset;
        phasorOffset = shape.phasorOffset;
        frequencyOffset = shape.frequencyOffset;
        analogOffset = shape.analogOffset;
        digitalOffset = shape.digitalOffset;
        nominalHz = shape.nominalHz;
        pmuIdCode = shape.pmuIdCode;
        phasorScale = shape.phasorScale;
        phasorAngle = shape.phasorAngle;
        analogScale = shape.analogScale;
        analogBias = shape.analogBias;
        this.frameSize = frameSize;
        formats = new DataFormat[format.length];
        for (int p = 0; p < format.length; p++) {
            formats[p] = new DataFormat(format[p]);
        }
    }

    /** The layout of data frames under a CFG-1 or CFG-2 (CFG-2 is what a PMU actually sends). */
    public static DataLayout of(ConfigFrame config) {
        List<PmuConfig> pmus = config.pmus();
        DataLayout l = new DataLayout(config.idCode(), config.timeBase(), pmus.size());
        int at = CommonHeader.LENGTH;
        for (int p = 0; p < pmus.size(); p++) {
            PmuConfig c = pmus.get(p);
            at = place(l, p, c.format(), c.phasorCount(), c.analogCount(), c.digitalCount(), at);
            l.nominalHz[p] = c.nominal().hertz();
            l.pmuIdCode[p] = c.idCode();
            boolean intPhasors = !c.format().floatPhasors();
            boolean intAnalogs = !c.format().floatAnalogs();
            for (int i = 0; i < c.phasorCount(); i++) {
                l.phasorScale[p][i] = intPhasors ? c.phasorUnits().get(i).scale() : 1.0;
            }
            for (int i = 0; i < c.analogCount(); i++) {
                l.analogScale[p][i] = intAnalogs ? c.analogUnits().get(i).factor() : 1.0;
            }
        }
        return finish(l, at);
    }

    /** The layout of data frames under a CFG-3. */
    public static DataLayout of(Config3Frame config) {
        List<Pmu3Config> pmus = config.pmus();
        DataLayout l = new DataLayout(config.idCode(), config.timeBase(), pmus.size());
        int at = CommonHeader.LENGTH;
        for (int p = 0; p < pmus.size(); p++) {
            Pmu3Config c = pmus.get(p);
            at = place(l, p, c.format(), c.phasorCount(), c.analogCount(), c.digitalCount(), at);
            l.nominalHz[p] = c.nominal().hertz();
            l.pmuIdCode[p] = c.idCode();
            for (int i = 0; i < c.phasorCount(); i++) {
                l.phasorScale[p][i] = c.phasorScales().get(i).scale();
                l.phasorAngle[p][i] = c.phasorScales().get(i).angleAdjustment();
            }
            for (int i = 0; i < c.analogCount(); i++) {
                l.analogScale[p][i] = c.analogScales().get(i).scale();
                l.analogBias[p][i] = c.analogScales().get(i).offset();
            }
        }
        return finish(l, at);
    }

    private static int place(DataLayout l, int p, DataFormat f, int phasors, int analogs, int digitals, int at) {
        l.format[p] = f.raw();
        l.phasors[p] = phasors;
        l.analogs[p] = analogs;
        l.digitals[p] = digitals;
        l.statOffset[p] = at;
        l.phasorOffset[p] = at + 2;
        l.frequencyOffset[p] = l.phasorOffset[p] + phasors * f.phasorSize();
        l.analogOffset[p] = l.frequencyOffset[p] + 2 * f.frequencySize();
        l.digitalOffset[p] = l.analogOffset[p] + analogs * f.analogSize();
        l.phasorScale[p] = new double[phasors];
        l.phasorAngle[p] = new double[phasors];
        l.analogScale[p] = new double[analogs];
        l.analogBias[p] = new double[analogs];
        long end = (long) l.digitalOffset[p] + 2L * digitals;
        if (end > CommonHeader.MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("the configuration's data frames exceed 65,535 bytes");
        }
        return (int) end;
    }

    private static DataLayout finish(DataLayout l, int end) {
        int size = end + CommonHeader.CHECKSUM_LENGTH;
        if (size > CommonHeader.MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("the configuration's data frames exceed 65,535 bytes");
        }
        return new DataLayout(l, size);
    }

    public int idCode() {
        return idCode;
    }

    /** FRAMESIZE of every data frame under this configuration. */
    public int frameSize() {
        return frameSize;
    }

    /** The configuration's raw TIME_BASE word. */
    public int timeBase() {
        return timeBase;
    }

    public int pmuCount() {
        return format.length;
    }

    public DataFormat format(int pmu) {
        return formats[pmu];
    }

    public int phasorCount(int pmu) {
        return phasors[pmu];
    }

    public int analogCount(int pmu) {
        return analogs[pmu];
    }

    public int digitalCount(int pmu) {
        return digitals[pmu];
    }

    public int nominalHz(int pmu) {
        return nominalHz[pmu];
    }

    /** The IDCODE of the PMU's data in the configuration (the frame's IDCODE names the stream). */
    public int pmuIdCode(int pmu) {
        return pmuIdCode[pmu];
    }
}
