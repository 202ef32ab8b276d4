package org.gridstat.gateway.c37118.config;

/**
 * A CFG-1/2 PHUNIT word: the top byte is 0 for a voltage, 1 for a current; the low 24 bits an
 * unsigned factor in 10^-5 V or A per bit, which scales 16-bit integer phasors. Float phasors are
 * already in volts or amperes and the factor is ignored for them.
 */
public record PhasorUnit(int raw) {
    public static PhasorUnit voltage(int factor) {
        return new PhasorUnit(factor & 0x00FF_FFFF);
    }

    public static PhasorUnit current(int factor) {
        return new PhasorUnit(1 << 24 | (factor & 0x00FF_FFFF));
    }

    public int type() {
        return raw >>> 24;
    }

    public boolean current() {
        return type() == 1;
    }

    public int factor() {
        return raw & 0x00FF_FFFF;
    }

    /** Volts or amperes per integer count. */
    public double scale() {
        return factor() * 1e-5;
    }
}
