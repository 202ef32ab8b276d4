package org.gridstat.core.model;

/**
 * The 64-bit identifier a broker assigns to a status variable; it is what travels in every event
 * header. Zero is reserved and never names a variable.
 */
public final class VariableId implements Comparable<VariableId> {
    private final long value;

    private VariableId(long value) {
        this.value = value;
    }

    /**
     * @throws IllegalArgumentException if {@code value} is zero
     */
    public static VariableId of(long value) {
        if (value == 0) {
            throw new IllegalArgumentException("variable id 0 is reserved");
        }
        return new VariableId(value);
    }

    /**
     * The id a name maps to: the first 63 bits of the SHA-256 of its text. Every broker derives
     * the same id from the same name, so a variable relayed from one cloud into another keeps the
     * id its events carry; two names sharing an id (odds about 2^-63 per pair) are refused by the
     * broker that meets both.
     */
    public static VariableId ofName(VariableName name) {
        byte[] digest;
        try {
            digest = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(name.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        long v = java.nio.ByteBuffer.wrap(digest).getLong() & Long.MAX_VALUE;
        return of(v == 0 ? 1 : v);
    }

    /** Parses a decimal or {@code 0x}-prefixed hexadecimal id. */
    public static VariableId parse(String text) {
        String t = text.trim();
        try {
            long v = t.startsWith("0x") || t.startsWith("0X")
                    ? Long.parseUnsignedLong(t.substring(2), 16)
                    : Long.parseUnsignedLong(t);
            return of(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("variable id '" + text + "' is not an unsigned 64-bit number");
        }
    }

    public long value() {
        return value;
    }

    @Override
    public int compareTo(VariableId o) {
        return Long.compareUnsigned(value, o.value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VariableId && ((VariableId) o).value == value;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(value);
    }

    @Override
    public String toString() {
        return Long.toUnsignedString(value);
    }
}
