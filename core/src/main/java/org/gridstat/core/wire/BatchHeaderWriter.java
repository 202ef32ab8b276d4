package org.gridstat.core.wire;

import static org.gridstat.core.wire.ByteOrderViews.putI32;
import static org.gridstat.core.wire.ByteOrderViews.putU16;
import static org.gridstat.core.wire.ByteOrderViews.putU8;
import static org.gridstat.core.wire.WireFormat.*;

import java.nio.ByteBuffer;

/**
 * Writes a batch's header and length table; the events follow it as they are, each a complete
 * status-event frame with its own checksum. The checksum written here covers the header and the
 * length table only, so a damaged event costs itself and never the framing of the others. Not
 * thread-safe; nothing allocated.
 */
public final class BatchHeaderWriter {
    private final FrameChecksum checksum = new FrameChecksum();

    /** Bytes the header and length table of a batch of {@code count} events take. */
    public static int headerLength(int count) {
        return BATCH_HEADER_LENGTH + count * BATCH_LENGTH_ENTRY;
    }

    /**
     * Writes the header and length table of a batch of the first {@code count} of {@code lengths}
     * at {@code offset}; the caller writes the events after it, in that order.
     *
     * @return the header's length, where the first event goes
     */
    public int write(ByteBuffer buffer, int offset, int[] lengths, int count) {
        if (count < 1 || count > MAX_BATCH_EVENTS || count > lengths.length) {
            throw new IllegalArgumentException("a batch holds 1.." + MAX_BATCH_EVENTS + " events, got " + count);
        }
        int header = headerLength(count);
        if (offset < 0 || offset + header > buffer.capacity()) {
            throw new IllegalArgumentException("no room for a " + header + "-byte batch header at " + offset);
        }
        putU16(buffer, offset + MAGIC_OFFSET, MAGIC);
        putU8(buffer, offset + VERSION_OFFSET, VERSION);
        putU8(buffer, offset + FRAME_TYPE_OFFSET, FRAME_TYPE_BATCH);
        putU16(buffer, offset + BATCH_COUNT_OFFSET, count);
        putU16(buffer, offset + BATCH_FLAGS_OFFSET, 0);
        for (int i = 0; i < count; i++) {
            int length = lengths[i];
            if (length < HEADER_LENGTH || length > MAX_FRAME_LENGTH) {
                throw new IllegalArgumentException("event " + i + " of " + length + " bytes is no frame");
            }
            putU16(buffer, offset + BATCH_HEADER_LENGTH + i * BATCH_LENGTH_ENTRY, length);
        }
        putI32(buffer, offset + BATCH_CHECKSUM_OFFSET, checksum.computeBatchHeader(buffer, offset, count));
        return header;
    }
}
