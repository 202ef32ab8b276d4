package org.gridstat.core.wire;

/**
 * Why a received frame was not accepted. The data path counts each reason and drops the frame;
 * nothing is thrown. {@link #NONE} means the frame is valid.
 */
public enum RejectReason {
    NONE("valid"),
    TRUNCATED("shorter than the 48-byte header"),
    OVERSIZE("longer than the largest frame"),
    BAD_MAGIC("does not start with the GridStat magic"),
    UNSUPPORTED_VERSION("header version this node does not speak"),
    UNKNOWN_FRAME_TYPE("frame type this node does not know"),
    RESERVED_BITS_SET("reserved flag bits are not zero"),
    LENGTH_MISMATCH("payload length field does not match the datagram length"),
    CHECKSUM_MISMATCH("CRC32C does not match the content"),
    BAD_SERVICE_CLASS("service class code names no class"),
    BAD_PAYLOAD_TYPE("payload type code names no type"),
    BAD_PAYLOAD_LENGTH("payload length does not fit the payload type"),
    BATCH_DAMAGED("a batch's header or length table is invalid (count, an entry no frame can have, the total): its events are dropped unread, counted once"),
    UNKNOWN_VARIABLE("variable is not in the forwarding table"),
    HOP_LIMIT("hop count reached its limit: a routing loop"),
    SOURCE_TIME_AHEAD("source timestamp further ahead of the router's clock than it trusts"),
    SOURCE_TIME_STALE("source timestamp older than any deadline the event could still meet");

    private final String description;

    RejectReason(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
