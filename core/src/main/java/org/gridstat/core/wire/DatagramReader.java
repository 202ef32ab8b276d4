package org.gridstat.core.wire;

import static org.gridstat.core.wire.ByteOrderViews.i32;
import static org.gridstat.core.wire.ByteOrderViews.u16;
import static org.gridstat.core.wire.ByteOrderViews.u8;
import static org.gridstat.core.wire.WireFormat.*;

import java.nio.ByteBuffer;

/**
 * Walks the status events of one received datagram where it lies: a lone event frame, or a batch
 * (header, length table, events). {@link #open} checks the batch's framing (its own checksum covers
 * the header and the length table), then {@link #next} steps to each event in turn; the events are
 * not validated here, each goes to a {@link StatusEventDecoder} or {@link FrameAdmission} on its
 * own, so a damaged event is dropped alone. A datagram that is not a batch is handed on whole as
 * one event, for the decoder to judge. One instance per receiving thread; nothing allocated.
 */
public final class DatagramReader {
    private final FrameChecksum checksum = new FrameChecksum();

    private ByteBuffer buffer;
    private int tableAt;
    private int count;
    private int index;
    private int nextOffset;
    private int eventOffset;
    private int eventLength;
    private boolean batch;

    /**
     * Opens the datagram of {@code length} bytes at {@code offset}.
     *
     * @return {@link RejectReason#NONE} if its events can be walked, {@link RejectReason#BATCH_DAMAGED}
     *     for a batch whose header or length table is invalid (the whole datagram is dropped),
     *     {@link RejectReason#OVERSIZE} for a datagram longer than any UDP datagram
     */
    public RejectReason open(ByteBuffer buffer, int offset, int length) {
        this.buffer = buffer;
        this.index = 0;
        if (offset < 0 || length < 0 || offset + length > buffer.limit()) {
            throw new IndexOutOfBoundsException("datagram [" + offset + ", " + (offset + length)
                    + ") lies outside the buffer's limit " + buffer.limit());
        }
        if (length > MAX_DATAGRAM_LENGTH) {
            count = 0;
            return RejectReason.OVERSIZE;
        }
        batch = length > FRAME_TYPE_OFFSET
                && u16(buffer, offset + MAGIC_OFFSET) == MAGIC
                && u8(buffer, offset + VERSION_OFFSET) == VERSION
                && u8(buffer, offset + FRAME_TYPE_OFFSET) == FRAME_TYPE_BATCH;
        if (!batch) {
            count = 1;
            eventOffset = offset;
            eventLength = length;
            return RejectReason.NONE;
        }
        count = 0;
        if (length < BATCH_HEADER_LENGTH || u16(buffer, offset + BATCH_FLAGS_OFFSET) != 0) {
            return RejectReason.BATCH_DAMAGED;
        }
        int n = u16(buffer, offset + BATCH_COUNT_OFFSET);
        int header = BatchHeaderWriter.headerLength(n);
        if (n == 0 || n > MAX_BATCH_EVENTS || header > length
                || checksum.computeBatchHeader(buffer, offset, n) != i32(buffer, offset + BATCH_CHECKSUM_OFFSET)) {
            return RejectReason.BATCH_DAMAGED;
        }
        long total = header;
        for (int i = 0; i < n; i++) {
            int entry = u16(buffer, offset + BATCH_HEADER_LENGTH + i * BATCH_LENGTH_ENTRY);
            if (entry < HEADER_LENGTH || entry > MAX_FRAME_LENGTH) {
                return RejectReason.BATCH_DAMAGED; // no frame is that long: the table is wrong
            }
            total += entry;
        }
        if (total != length) {
            return RejectReason.BATCH_DAMAGED;
        }
        count = n;
        tableAt = offset + BATCH_HEADER_LENGTH;
        nextOffset = offset + header;
        return RejectReason.NONE;
    }

    /** Whether the open datagram is a batch (rather than a lone frame). */
    public boolean isBatch() {
        return batch;
    }

    /** Events in the open datagram: 1 for a lone frame, 0 after a refused {@link #open}. */
    public int count() {
        return count;
    }

    /** Steps to the next event; {@code false} when there is none left. */
    public boolean next() {
        if (index >= count) {
            return false;
        }
        if (batch) {
            eventOffset = nextOffset;
            eventLength = u16(buffer, tableAt + index * BATCH_LENGTH_ENTRY);
            nextOffset += eventLength;
        }
        index++;
        return true;
    }

    /** Index of the current event's first byte in the buffer. */
    public int eventOffset() {
        return eventOffset;
    }

    /** The current event's length as the datagram gives it (the decoder checks it against the frame). */
    public int eventLength() {
        return eventLength;
    }
}
