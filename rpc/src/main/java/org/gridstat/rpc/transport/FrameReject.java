package org.gridstat.rpc.transport;

/** Why a received 2WoPS frame was dropped; each is counted. */
public enum FrameReject {
    NONE("accepted"),
    TOO_SHORT("shorter than the frame header"),
    BAD_MAGIC("not a 2WoPS frame (magic)"),
    BAD_VERSION("a 2WoPS version this endpoint does not speak"),
    BAD_KIND("unknown frame kind"),
    BAD_REDUNDANCY("copies, paths or copy index out of range"),
    BAD_LENGTH("payload length disagrees with the frame's"),
    NO_CONNECTION("connection id 0"),
    /** An acknowledgement of nothing this endpoint sent, or of a try no longer awaited. */
    STRAY_ACK("acknowledges nothing awaited"),
    /** A copy of a try already delivered: spatial or temporal redundancy's excess. */
    DUPLICATE("a copy of a try already delivered");

    private final String description;

    FrameReject(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
