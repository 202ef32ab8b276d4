package org.gridstat.gateway.c37118.config;

/**
 * A CFG-1/2 ANUNIT word: the top byte says what the value is (0 single point-on-wave, 1 RMS, 2
 * peak; 65-255 user defined), the low 24 bits a signed, user-defined scale. This codec multiplies
 * 16-bit integer analogs by it and leaves float analogs as sent, as it does for phasors.
 */
public record AnalogUnit(int raw) {
    public static final int POINT_ON_WAVE = 0;
    public static final int RMS = 1;
    public static final int PEAK = 2;

    public static AnalogUnit of(int kind, int factor) {
        return new AnalogUnit((kind & 0xFF) << 24 | (factor & 0x00FF_FFFF));
    }

    public int kind() {
        return raw >>> 24;
    }

    /** The 24-bit factor, sign extended. */
    public int factor() {
        return raw << 8 >> 8;
    }
}
