package org.gridstat.core.wire;

/**
 * Offsets and limits of the status event frame, version 1. All fields are big-endian. See
 * {@code docs/wire-format.md} for the byte-by-byte description.
 */
public final class WireFormat {
    /** "GS" */
    public static final int MAGIC = 0x4753;
    public static final int VERSION = 1;
    public static final int FRAME_TYPE_STATUS_EVENT = 1;
    /** Several status-event frames in one datagram, behind a batch header and a length table. */
    public static final int FRAME_TYPE_BATCH = 2;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 2;
    public static final int FRAME_TYPE_OFFSET = 3;
    public static final int SERVICE_CLASS_OFFSET = 4;
    public static final int HOP_COUNT_OFFSET = 5;
    public static final int PATH_ID_OFFSET = 6;
    public static final int VARIABLE_ID_OFFSET = 8;
    public static final int SEQUENCE_OFFSET = 16;
    public static final int SOURCE_TIME_OFFSET = 24;
    public static final int DEADLINE_OFFSET = 32;
    public static final int PAYLOAD_TYPE_OFFSET = 40;
    public static final int FLAGS_OFFSET = 41;
    public static final int PAYLOAD_LENGTH_OFFSET = 42;
    public static final int CHECKSUM_OFFSET = 44;
    public static final int HEADER_LENGTH = 48;

    /** Largest frame: one UDP datagram that fits a 1500-byte Ethernet MTU over IPv4 unfragmented. */
    public static final int MAX_FRAME_LENGTH = 1472;
    public static final int MAX_PAYLOAD_LENGTH = MAX_FRAME_LENGTH - HEADER_LENGTH;

    // The batch header: magic, version and frame type at the same offsets as an event's.
    public static final int BATCH_COUNT_OFFSET = 4;
    public static final int BATCH_FLAGS_OFFSET = 6;
    public static final int BATCH_CHECKSUM_OFFSET = 8;
    /** The batch header's length; the length table (two bytes an event) follows it. */
    public static final int BATCH_HEADER_LENGTH = 12;
    public static final int BATCH_LENGTH_ENTRY = 2;

    /**
     * IPv4 and UDP header bytes every datagram carries on the wire beyond its payload: what a link's
     * pacer charges per datagram, and what the broker adds to every frame it reserves for.
     */
    public static final int DATAGRAM_OVERHEAD = 28;

    /** Largest UDP datagram over IPv4: the most a batch may be on a link whose MTU allows it. */
    public static final int MAX_DATAGRAM_LENGTH = 65_507;
    /** Most events one batch can hold: header-only events in the largest datagram. */
    public static final int MAX_BATCH_EVENTS = (MAX_DATAGRAM_LENGTH - BATCH_HEADER_LENGTH)
            / (HEADER_LENGTH + BATCH_LENGTH_ENTRY);

    /** A deadline of zero means the event has none. */
    public static final long NO_DEADLINE = 0L;

    /** Hop counts stop here; a frame that reaches it is looping and is dropped. */
    public static final int MAX_HOP_COUNT = 255;

    private WireFormat() {
    }
}
