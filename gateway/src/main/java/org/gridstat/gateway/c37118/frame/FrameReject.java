package org.gridstat.gateway.c37118.frame;

/**
 * Why a frame, or bytes that looked like the start of one, was not accepted. Decoders and the
 * stream framer answer with one of these and count it; nothing is thrown. {@link #NONE} means valid.
 */
public enum FrameReject {
    NONE("valid"),
    TRUNCATED("fewer bytes than the frame needs: shorter than the 16-byte minimum or than its FRAMESIZE"),
    BAD_SYNC("bytes that do not start with the 0xAA sync byte (skipped while resynchronising)"),
    UNKNOWN_FRAME_TYPE("SYNC names a reserved frame type (6 or 7) or sets the reserved bit 7"),
    UNSUPPORTED_VERSION("SYNC names a version other than 1 (2005) and 2 (2011), or CFG-3 in version 1"),
    BAD_LENGTH("FRAMESIZE below the 16-byte minimum, above the configured maximum, or not the bytes given"),
    BAD_CRC("CRC-CCITT does not match the frame"),
    WRONG_FRAME_TYPE("a valid frame of another type than the decoder reads"),
    MALFORMED_BODY("the body contradicts itself: counts that overrun the frame, trailing bytes, a zero TIME_BASE, a configuration whose data frame could not fit 65,535 bytes"),
    LENGTH_MISMATCH("a data frame whose size is not the one its configuration implies"),
    UNKNOWN_IDCODE("a data frame from a stream whose configuration is not the one given: the session layer decides"),
    CONTINUATION_OUT_OF_ORDER("a CFG-3 fragment out of sequence, or fragments larger in total than allowed");

    private final String description;

    FrameReject(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
