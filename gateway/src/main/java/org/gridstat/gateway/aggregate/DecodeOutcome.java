package org.gridstat.gateway.aggregate;

/** What {@link MeterDecoder#next} found: a record, the need for more bytes, or a reject, each described once. */
public enum DecodeOutcome {
    NEED_MORE(false, "no whole record in the bytes given so far"),
    HELLO(false, "a hello: meter and region ids"),
    READING(false, "a reading within the time window"),
    UNKNOWN_TYPE(true, "a magic byte followed by a record type this version does not know; one byte skipped"),
    BAD_LENGTH(true, "a record whose length field is not its type's length; one byte skipped"),
    BAD_CHECKSUM(true, "a record whose CRC-32C does not match; one byte skipped"),
    BAD_VERSION(true, "a hello of another format version"),
    UNKNOWN_KIND(true, "a reading whose kind mask has a bit this version does not know"),
    BAD_VALUE(true, "a reading carrying a NaN or infinite value"),
    TIME_AHEAD(true, "a reading stamped further ahead of the gateway's clock than the window allows"),
    TIME_BEHIND(true, "a reading stamped further behind the gateway's clock than the window allows");

    private final boolean reject;
    private final String description;

    DecodeOutcome(boolean reject, String description) {
        this.reject = reject;
        this.description = description;
    }

    public boolean reject() {
        return reject;
    }

    /** Whether a whole record with a good checksum was taken (a hello, a reading, or one refused for its content). */
    public boolean wholeRecord() {
        return this == HELLO || this == READING || this == BAD_VERSION || this == UNKNOWN_KIND || this == BAD_VALUE
                || this == TIME_AHEAD || this == TIME_BEHIND;
    }

    public String description() {
        return description;
    }
}
