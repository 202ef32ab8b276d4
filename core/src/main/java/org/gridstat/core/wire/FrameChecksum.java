package org.gridstat.core.wire;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * CRC32C of a frame: the header up to the checksum field, then the payload; or of a batch's
 * header and length table. One instance per
 * thread; it reuses its {@link CRC32C} and leaves the buffer's position and limit as it found them.
 */
final class FrameChecksum {
    private final CRC32C crc = new CRC32C();

    int compute(ByteBuffer buffer, int frameOffset, int payloadLength) {
        crc.reset();
        update(buffer, frameOffset, WireFormat.CHECKSUM_OFFSET);
        update(buffer, frameOffset + WireFormat.HEADER_LENGTH, payloadLength);
        return (int) crc.getValue();
    }

    /** CRC32C of a batch's header up to its checksum field, then its length table of {@code count} entries. */
    int computeBatchHeader(ByteBuffer buffer, int batchOffset, int count) {
        crc.reset();
        update(buffer, batchOffset, WireFormat.BATCH_CHECKSUM_OFFSET);
        update(buffer, batchOffset + WireFormat.BATCH_HEADER_LENGTH, count * WireFormat.BATCH_LENGTH_ENTRY);
        return (int) crc.getValue();
    }

    private void update(ByteBuffer buffer, int index, int length) {
        if (length == 0) {
            return;
        }
        if (buffer.hasArray()) {
            crc.update(buffer.array(), buffer.arrayOffset() + index, length);
            return;
        }
        int position = buffer.position();
        int limit = buffer.limit();
        try {
            buffer.limit(index + length).position(index);
            crc.update(buffer);
        } finally {
            buffer.limit(limit).position(position);
        }
    }
}
