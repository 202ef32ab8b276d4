package org.gridstat.gateway.aggregate;

/**
 * The quantities a meter reading can carry, in the order of the reading's value fields and of the
 * aggregate's per-kind blocks. A reading's kind mask has bit {@link #bit()} set for each value it
 * carries; a value whose bit is clear is ignored, whatever its bytes.
 */
public enum ValueKind {
    ACTIVE_POWER("W"),
    REACTIVE_POWER("var"),
    VOLTAGE("V");

    /** Every kind bit this version knows: a mask with any other bit set is refused. */
    public static final int KNOWN_MASK = (1 << values().length) - 1;

    private final String unit;

    ValueKind(String unit) {
        this.unit = unit;
    }

    public String unit() {
        return unit;
    }

    /** This kind's bit in a reading's kind mask. */
    public int bit() {
        return 1 << ordinal();
    }
}
