package org.gridstat.gateway.c37118.config;

/**
 * A CFG-3 PHSCALE entry, 12 bytes: a 16-bit modification flags word (bit 15 modification applied,
 * 10 pseudo-phasor, 9 phase adjusted for rotation, 8 phase and 7 magnitude adjusted for
 * calibration, 6 filtered, 5-3 down sampled non-FIR/FIR/reselection, 2-1 up sampled extrapolation/
 * interpolation), a phasor type byte (bit 3: 0 voltage, 1 current; bits 2-0: 0 zero, 1 positive,
 * 2 negative sequence, 4-6 phase A-C), a user byte, then the scale factor Y and the angle
 * adjustment θ (radians) as floats. The floats are kept as their bits, so they re-encode exactly.
 */
public record PhasorScale(int flags, int phasorType, int userByte, int scaleBits, int angleBits) {
    public PhasorScale {
        flags &= 0xFFFF;
        phasorType &= 0xFF;
        userByte &= 0xFF;
    }

    public static PhasorScale of(int flags, int phasorType, float scale, float angleAdjustment) {
        return new PhasorScale(flags, phasorType, 0, Float.floatToRawIntBits(scale), Float.floatToRawIntBits(angleAdjustment));
    }

    public boolean current() {
        return (phasorType & 0x08) != 0;
    }

    /** 0 zero, 1 positive, 2 negative sequence; 4, 5, 6 phase A, B, C. */
    public int component() {
        return phasorType & 0x07;
    }

    public float scale() {
        return Float.intBitsToFloat(scaleBits);
    }

    public float angleAdjustment() {
        return Float.intBitsToFloat(angleBits);
    }
}
