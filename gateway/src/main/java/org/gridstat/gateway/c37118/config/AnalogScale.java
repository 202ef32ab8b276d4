package org.gridstat.gateway.c37118.config;

/** A CFG-3 ANSCALE entry: value = M × sent + B, both floats, kept as their bits. */
public record AnalogScale(int scaleBits, int offsetBits) {
    public static AnalogScale of(float scale, float offset) {
        return new AnalogScale(Float.floatToRawIntBits(scale), Float.floatToRawIntBits(offset));
    }

    public float scale() {
        return Float.intBitsToFloat(scaleBits);
    }

    public float offset() {
        return Float.intBitsToFloat(offsetBits);
    }
}
