package org.gridstat.rpc.call;

/** The types an operation's arguments and results may have, and their tags on the wire. */
public enum ParamType {
    INTEGER(1, Long.class),
    DECIMAL(2, Double.class),
    BOOLEAN(3, Boolean.class),
    TEXT(4, String.class);

    final int tag;
    private final Class<?> javaType;

    ParamType(int tag, Class<?> javaType) {
        this.tag = tag;
        this.javaType = javaType;
    }

    /** Whether {@code value} is of this type: Long, Double, Boolean or String. */
    public boolean accepts(Object value) {
        return javaType.isInstance(value);
    }

    /** The type of a value, or {@code null} if it is none of the four. */
    public static ParamType of(Object value) {
        for (ParamType t : values()) {
            if (t.accepts(value)) {
                return t;
            }
        }
        return null;
    }

    static ParamType ofTag(int tag) {
        for (ParamType t : values()) {
            if (t.tag == tag) {
                return t;
            }
        }
        return null;
    }
}
