package org.gridstat.core.wire;

/** How the payload bytes of a status event are to be read. */
public enum PayloadType {
    /** Opaque bytes, interpreted by the application. */
    RAW(0),
    /** One IEEE 754 double, 8 bytes. */
    DOUBLE(1),
    /** A vector of IEEE 754 floats, 4 bytes each (a phasor is two of them). */
    FLOAT_VECTOR(2);

    private static final PayloadType[] BY_CODE = {RAW, DOUBLE, FLOAT_VECTOR};

    private final int code;

    PayloadType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The type for a wire code, or {@code null} if the code names none. */
    public static PayloadType fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
