package org.gridstat.core.wire;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.model.ServiceClass;
import org.junit.jupiter.api.Test;

/** Several events in one datagram: the batch's layout, and what a damaged batch or event costs. */
class BatchFrameTest {
    /** Encodes events of variables {@code ids} (payload of {@code payload} bytes each) as one batch at offset 0. */
    static int batch(ByteBuffer out, int payload, long... ids) {
        StatusEventEncoder encoder = new StatusEventEncoder();
        ByteBuffer one = ByteBuffer.allocate(WireFormat.MAX_FRAME_LENGTH);
        int[] lengths = new int[ids.length];
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < ids.length; i++) {
            lengths[i] = encoder.wrap(one, 0).variableId(ids[i]).sequence(i).sourceTimeNanos(1_000 + i)
                    .serviceClass(ServiceClass.HRT).rawPayloadLength(payload).seal();
            byte[] f = new byte[lengths[i]];
            one.get(0, f);
            frames.add(f);
        }
        int at = new BatchHeaderWriter().write(out, 0, lengths, ids.length);
        for (byte[] f : frames) {
            out.put(at, f);
            at += f.length;
        }
        return at;
    }

    /** What the reader and a decoder make of the datagram: each event's variable, or its reject reason. */
    private static List<String> read(ByteBuffer in, int length) {
        DatagramReader reader = new DatagramReader();
        StatusEventDecoder decoder = new StatusEventDecoder();
        List<String> out = new ArrayList<>();
        RejectReason framing = reader.open(in, 0, length);
        if (framing != RejectReason.NONE) {
            out.add("datagram " + framing);
            return out;
        }
        while (reader.next()) {
            RejectReason r = decoder.wrap(in, reader.eventOffset(), reader.eventLength());
            out.add(r == RejectReason.NONE ? "v" + decoder.variableId() : r.name());
        }
        return out;
    }

    @Test
    void theLayoutIsAHeaderALengthTableAndTheEventsAsTheyAre() {
        ByteBuffer b = ByteBuffer.allocate(4096);
        int n = batch(b, 8, 1, 2, 3);
        assertEquals(12 + 3 * 2 + 3 * 56, n);
        assertEquals(0x47, b.get(0) & 0xFF);
        assertEquals(0x53, b.get(1) & 0xFF);
        assertEquals(1, b.get(2), "version");
        assertEquals(2, b.get(3), "frame type: batch");
        assertEquals(3, b.getShort(4), "event count");
        assertEquals(0, b.getShort(6), "flags");
        assertEquals(56, b.getShort(12));
        assertEquals(56, b.getShort(14));
        assertEquals(56, b.getShort(16));
        assertEquals(0x47, b.get(18) & 0xFF, "the first event starts after the table");
        assertEquals(1, b.get(18 + 3), "as a complete status-event frame");
        assertEquals(List.of("v1", "v2", "v3"), read(b, n));
    }

    @Test
    void aLoneFrameIsOneEventAsBefore() {
        ByteBuffer b = ByteBuffer.allocate(4096);
        int n = new StatusEventEncoder().wrap(b, 0).variableId(9).doublePayload(50.0).seal();
        DatagramReader reader = new DatagramReader();
        assertEquals(RejectReason.NONE, reader.open(b, 0, n));
        assertFalse(reader.isBatch());
        assertEquals(1, reader.count());
        assertEquals(List.of("v9"), read(b, n));
        assertEquals(List.of("TRUNCATED"), read(b, 3), "a short datagram is judged by the decoder");
    }

    @Test
    void aDamagedEventCostsOnlyItself() {
        ByteBuffer b = ByteBuffer.allocate(4096);
        int n = batch(b, 8, 1, 2, 3);
        b.put(18 + 56 + 50, (byte) (b.get(18 + 56 + 50) ^ 0x40)); // a payload bit of the second event
        assertEquals(List.of("v1", "CHECKSUM_MISMATCH", "v3"), read(b, n));
        b.put(18 + 56 + 50, (byte) (b.get(18 + 56 + 50) ^ 0x40));
        b.put(18 + 42, (byte) 0x7F); // the first event's own payload length field
        assertEquals(List.of("LENGTH_MISMATCH", "v2", "v3"), read(b, n), "its length in the table still frames the rest");
    }

    @Test
    void aDamagedHeaderOrTableDropsTheDatagramUnderItsOwnReason() {
        ByteBuffer b = ByteBuffer.allocate(4096);
        int n = batch(b, 8, 1, 2, 3);
        for (int at : new int[] {4, 5, 6, 7, 8, 11, 12, 13, 17}) {
            ByteBuffer copy = ByteBuffer.allocate(4096);
            copy.put(0, b, 0, n);
            copy.put(at, (byte) (copy.get(at) ^ 0x01));
            assertEquals(List.of("datagram BATCH_DAMAGED"), read(copy, n), "byte " + at);
        }
        assertEquals(List.of("datagram BATCH_DAMAGED"), read(b, n - 1), "a datagram cut short");
        assertEquals(List.of("datagram BATCH_DAMAGED"), read(b, 11), "shorter than the header");
        ByteBuffer longer = ByteBuffer.allocate(4096);
        longer.put(0, b, 0, n);
        assertEquals(List.of("datagram BATCH_DAMAGED"), read(longer, n + 1), "trailing bytes");
        assertEquals(List.of("datagram BATCH_DAMAGED"), read(forged(new int[] {10, 2000}), 12 + 4 + 2010),
                "table entries no frame can have, even where they add up");
        int[] zeros = new int[WireFormat.MAX_BATCH_EVENTS + 1];
        assertEquals(List.of("datagram BATCH_DAMAGED"), read(forged(zeros), 12 + 2 * zeros.length),
                "more events than the largest datagram holds");
    }

    /** A batch header and table with a valid checksum over whatever lengths it is given; zero-filled events. */
    private static ByteBuffer forged(int[] lengths) {
        ByteBuffer b = ByteBuffer.allocate(70_000);
        b.putShort(0, (short) WireFormat.MAGIC).put(2, (byte) 1).put(3, (byte) WireFormat.FRAME_TYPE_BATCH)
                .putShort(4, (short) lengths.length);
        for (int i = 0; i < lengths.length; i++) {
            b.putShort(12 + 2 * i, (short) lengths[i]);
        }
        b.putInt(8, new FrameChecksum().computeBatchHeader(b, 0, lengths.length));
        return b;
    }

    @Test
    void aBatchMayFillTheLargestDatagramAndNoMore() {
        ByteBuffer b = ByteBuffer.allocate(70_000);
        long[] ids = new long[WireFormat.MAX_BATCH_EVENTS];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = i + 1;
        }
        int n = batch(b, 0, ids);
        assertTrue(n <= WireFormat.MAX_DATAGRAM_LENGTH, n + " bytes");
        assertEquals(ids.length, read(b, n).size());
        assertEquals(List.of("datagram OVERSIZE"), read(b, WireFormat.MAX_DATAGRAM_LENGTH + 1));
        assertThrows(IllegalArgumentException.class,
                () -> new BatchHeaderWriter().write(b, 0, new int[WireFormat.MAX_BATCH_EVENTS + 1], WireFormat.MAX_BATCH_EVENTS + 1));
        assertThrows(IllegalArgumentException.class, () -> new BatchHeaderWriter().write(b, 0, new int[] {47}, 1),
                "an entry that is no frame");
    }
}
