package org.gridstat.core.control;

/** A decoded control frame: its sequence number and message, or why it was refused. */
public record ControlFrame(long sequence, ControlMessage message, Reject reject, String detail) {
    /** Why a frame was refused. */
    public enum Reject {
        TRUNCATED,
        OVERSIZE,
        UNSUPPORTED_VERSION,
        UNKNOWN_TYPE,
        BAD_FIELD,
        TRAILING_BYTES
    }

    static ControlFrame of(long sequence, ControlMessage message) {
        return new ControlFrame(sequence, message, null, null);
    }

    static ControlFrame refused(Reject reject, String detail) {
        return new ControlFrame(-1, null, reject, detail);
    }

    public boolean valid() {
        return reject == null;
    }

    @Override
    public String toString() {
        return valid() ? "#" + sequence + " " + message : "refused: " + reject + " (" + detail + ")";
    }
}
