package org.gridstat.gateway.c37118.config;

/**
 * A PMU's FORMAT word: bit 3 FREQ/DFREQ as floats, bit 2 analogs as floats, bit 1 phasors as
 * floats, bit 0 phasors polar (magnitude, angle) rather than rectangular (real, imaginary). Bits
 * 15-4 are unused; they are kept as sent so the word re-encodes unchanged.
 */
public record DataFormat(int raw) {
    public DataFormat {
        raw &= 0xFFFF;
    }

    public static DataFormat of(boolean polar, boolean floatPhasors, boolean floatAnalogs, boolean floatFrequency) {
        return new DataFormat((floatFrequency ? 8 : 0) | (floatAnalogs ? 4 : 0) | (floatPhasors ? 2 : 0) | (polar ? 1 : 0));
    }

    public boolean polar() {
        return (raw & 1) != 0;
    }

    public boolean floatPhasors() {
        return (raw & 2) != 0;
    }

    public boolean floatAnalogs() {
        return (raw & 4) != 0;
    }

    public boolean floatFrequency() {
        return (raw & 8) != 0;
    }

    /** Bytes per phasor in a data frame: two 16-bit integers or two floats. */
    public int phasorSize() {
        return floatPhasors() ? 8 : 4;
    }

    public int analogSize() {
        return floatAnalogs() ? 4 : 2;
    }

    /** Bytes of FREQ, and of DFREQ. */
    public int frequencySize() {
        return floatFrequency() ? 4 : 2;
    }

    /** Bytes one PMU takes in a data frame: STAT, phasors, FREQ, DFREQ, analogs, digitals. */
    public long pmuDataSize(int phasors, int analogs, int digitals) {
        return 2L + (long) phasors * phasorSize() + 2L * frequencySize() + (long) analogs * analogSize() + 2L * digitals;
    }
}
