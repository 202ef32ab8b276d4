package org.gridstat.gateway.aggregate;

import java.nio.ByteBuffer;
import org.gridstat.core.wire.WireFormat;

/**
 * The payload of a region's aggregate status variable, one per interval (docs/meter-format.md),
 * big-endian, at most {@link WireFormat#MAX_PAYLOAD_LENGTH} bytes. Written by the aggregator;
 * {@link #wrap} reads one back without copying, refusing (false) anything malformed.
 */
public final class AggregatePayload {
    public static final int KIND = 3;
    public static final int VERSION = 1;
    public static final int HEADER_LENGTH = 36;
    /** Per value kind: count, sum, mean, min, max. */
    public static final int KIND_BLOCK_LENGTH = 28;
    public static final int KINDS = ValueKind.values().length;
    public static final int LISTS_AT = HEADER_LENGTH + KINDS * KIND_BLOCK_LENGTH;
    /** The most missing meters one payload names: the rest of the largest payload. */
    public static final int MAX_LISTED_MISSING = (WireFormat.MAX_PAYLOAD_LENGTH - LISTS_AT) / 4;
    /** Flag bit 0: more meters were missing than are listed. */
    public static final int FLAG_MISSING_TRUNCATED = 1;
    /** Flag bit 1: emitted before its grace ended, because the gateway shut down. */
    public static final int FLAG_CLOSED_EARLY = 2;

    static final int REGION = 2;
    static final int START = 4;
    static final int INTERVAL_MILLIS = 12;
    static final int EXPECTED = 16;
    static final int REPORTING = 20;
    static final int MISSING = 24;
    static final int FLAGGED = 28;
    static final int KIND_COUNT = 32;
    static final int FLAGS = 33;
    static final int LISTED = 34;

    private ByteBuffer b;
    private int at;

    /** Reads the payload at {@code offset}; false, leaving the view empty, if it is not a well-formed aggregate. */
    public boolean wrap(byte[] bytes, int offset, int length) {
        b = null;
        if (length < LISTS_AT || length > WireFormat.MAX_PAYLOAD_LENGTH) {
            return false;
        }
        ByteBuffer v = ByteBuffer.wrap(bytes, offset, length);
        if ((v.get(offset) & 0xFF) != KIND || (v.get(offset + 1) & 0xFF) != VERSION
                || (v.get(offset + KIND_COUNT) & 0xFF) != KINDS) {
            return false;
        }
        int listed = v.getShort(offset + LISTED) & 0xFFFF;
        if (length != LISTS_AT + 4 * listed) {
            return false;
        }
        b = v;
        at = offset;
        return true;
    }

    public int regionId() {
        return b.getShort(at + REGION) & 0xFFFF;
    }

    public long intervalStartNanos() {
        return b.getLong(at + START);
    }

    public long intervalMillis() {
        return b.getInt(at + INTERVAL_MILLIS) & 0xFFFF_FFFFL;
    }

    /** Meters known to the region that were expected to report in the interval. */
    public long expected() {
        return b.getInt(at + EXPECTED) & 0xFFFF_FFFFL;
    }

    /** Meters whose reading was folded into the interval. */
    public long reporting() {
        return b.getInt(at + REPORTING) & 0xFFFF_FFFFL;
    }

    /** Expected meters that did not report. */
    public long missing() {
        return b.getInt(at + MISSING) & 0xFFFF_FFFFL;
    }

    /** Readings folded whose quality byte was not 0. */
    public long flagged() {
        return b.getInt(at + FLAGGED) & 0xFFFF_FFFFL;
    }

    public int flags() {
        return b.get(at + FLAGS) & 0xFF;
    }

    /** Missing meters named in the list. */
    public int listed() {
        return b.getShort(at + LISTED) & 0xFFFF;
    }

    public long listedMissing(int i) {
        return b.getInt(at + LISTS_AT + 4 * i) & 0xFFFF_FFFFL;
    }

    /** Readings of the interval that carried this kind. */
    public long count(ValueKind k) {
        return b.getInt(block(k)) & 0xFFFF_FFFFL;
    }

    public double sum(ValueKind k) {
        return b.getDouble(block(k) + 4);
    }

    /** Sum over count; NaN when no reading carried the kind. */
    public double mean(ValueKind k) {
        return b.getDouble(block(k) + 12);
    }

    /** NaN when no reading carried the kind. */
    public float min(ValueKind k) {
        return b.getFloat(block(k) + 20);
    }

    public float max(ValueKind k) {
        return b.getFloat(block(k) + 24);
    }

    private int block(ValueKind k) {
        return at + HEADER_LENGTH + k.ordinal() * KIND_BLOCK_LENGTH;
    }
}
