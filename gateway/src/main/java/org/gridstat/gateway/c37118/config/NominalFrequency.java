package org.gridstat.gateway.c37118.config;

/** The FNOM word: bit 0 set means 50 Hz, clear means 60 Hz; bits 15-1 reserved, kept as sent. */
public record NominalFrequency(int raw) {
    public static final NominalFrequency HZ_50 = new NominalFrequency(1);
    public static final NominalFrequency HZ_60 = new NominalFrequency(0);

    public NominalFrequency {
        raw &= 0xFFFF;
    }

    public int hertz() {
        return (raw & 1) != 0 ? 50 : 60;
    }
}
