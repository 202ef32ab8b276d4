package org.gridstat.gateway.c37118.frame;

/** The frame type carried in bits 6-4 of the second SYNC byte. Codes 6 and 7 are reserved. */
public enum FrameType {
    DATA(0),
    HEADER(1),
    CONFIG_1(2),
    CONFIG_2(3),
    COMMAND(4),
    /** Defined by the 2011 revision only. */
    CONFIG_3(5);

    private static final FrameType[] BY_CODE = {DATA, HEADER, CONFIG_1, CONFIG_2, COMMAND, CONFIG_3};

    private final int code;

    FrameType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The type with this 3-bit code, or null for a reserved code. */
    public static FrameType ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
