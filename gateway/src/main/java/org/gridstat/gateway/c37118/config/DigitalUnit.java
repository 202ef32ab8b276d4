package org.gridstat.gateway.c37118.config;

/**
 * A DIGUNIT word pair for one 16-bit digital word: the normal state of the inputs (a word XORed
 * with it is 0 when all are normal) and which inputs are valid.
 */
public record DigitalUnit(int normalMask, int validMask) {
    public DigitalUnit {
        normalMask &= 0xFFFF;
        validMask &= 0xFFFF;
    }

    public int raw() {
        return normalMask << 16 | validMask;
    }

    public static DigitalUnit ofRaw(int raw) {
        return new DigitalUnit(raw >>> 16, raw);
    }
}
