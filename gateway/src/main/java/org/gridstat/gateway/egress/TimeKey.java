package org.gridstat.gateway.egress;

import org.gridstat.gateway.c37118.frame.FracSec;
import org.gridstat.gateway.c37118.frame.TimeBase;

/**
 * A sample's timestamp in an output stream's terms, as one ordered long: SOC in the high bits,
 * the fraction counted in the output stream's TIME_BASE in the low 24. Samples of PMUs whose
 * streams count fractions differently meet on the same key when they measure the same instant.
 */
public final class TimeKey {
    private TimeKey() {
    }

    /**
     * The key of SOC and FRACSEC sent under {@code sampleTimeBase}, for an output stream counting
     * {@code outputTimeBase}. Under the same subdivision the fraction is kept as sent; otherwise it
     * is rescaled to the nearest count, carrying into SOC at a whole second.
     */
    public static long of(long soc, int fracSec, int sampleTimeBase, int outputTimeBase) {
        long s = soc & 0xFFFF_FFFFL;
        long fraction = FracSec.fraction(fracSec);
        long in = TimeBase.subdivision(sampleTimeBase);
        long out = TimeBase.subdivision(outputTimeBase);
        if (in != out) {
            long scaled = in == 0 ? 0 : (fraction * out + in / 2) / in;
            s += out == 0 ? 0 : scaled / out;
            fraction = out == 0 ? 0 : scaled % out;
        }
        return s << 24 | fraction;
    }

    public static long soc(long key) {
        return key >>> 24;
    }

    public static int fraction(long key) {
        return (int) (key & FracSec.FRACTION_MASK);
    }
}
