package org.gridstat.core.wire;

import static org.junit.jupiter.api.Assertions.*;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;

/**
 * Whatever bytes arrive, the datagram reader answers with a reason or walks events that lie
 * inside the datagram, end to end, and never throws; each event then goes to the decoder, which
 * never throws either. The seed corpus lives in the resources folder of the same name.
 */
class DatagramReaderFuzzTest {
    private final DatagramReader reader = new DatagramReader();
    private final StatusEventDecoder decoder = new StatusEventDecoder();
    private final FrameChecksum checksum = new FrameChecksum();

    @FuzzTest(maxDuration = "10s")
    void readArbitraryDatagrams(byte[] data) {
        readAndCheck(data);
        // Random bytes rarely carry a valid batch checksum; read them again with it fixed, so the
        // table and the events behind it get fuzzed too.
        if (data.length >= WireFormat.BATCH_HEADER_LENGTH) {
            ByteBuffer b = ByteBuffer.wrap(data);
            b.putShort(0, (short) WireFormat.MAGIC).put(2, (byte) WireFormat.VERSION).put(3, (byte) WireFormat.FRAME_TYPE_BATCH);
            int count = b.getShort(WireFormat.BATCH_COUNT_OFFSET) & 0xFFFF;
            if (BatchHeaderWriter.headerLength(count) <= data.length) {
                b.putInt(WireFormat.BATCH_CHECKSUM_OFFSET, checksum.computeBatchHeader(b, 0, count));
                readAndCheck(data);
            }
        }
    }

    private void readAndCheck(byte[] data) {
        ByteBuffer b = ByteBuffer.wrap(data);
        RejectReason r = reader.open(b, 0, data.length);
        assertNotNull(r);
        if (r != RejectReason.NONE) {
            assertEquals(0, reader.count());
            assertFalse(reader.next());
            return;
        }
        int events = 0;
        int end = reader.isBatch() ? BatchHeaderWriter.headerLength(reader.count()) : 0;
        while (reader.next()) {
            events++;
            assertEquals(end, reader.eventOffset(), "events lie end to end");
            end += reader.eventLength();
            assertTrue(end <= data.length, "inside the datagram");
            assertNotNull(decoder.wrap(b, reader.eventOffset(), reader.eventLength()));
        }
        assertEquals(reader.count(), events);
        assertEquals(data.length, end, "and fill it");
    }
}
