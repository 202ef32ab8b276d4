package org.gridstat.core.wire;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;
import org.gridstat.core.model.ServiceClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class StatusEventCodecTest {
    private final StatusEventEncoder encoder = new StatusEventEncoder();
    private final StatusEventDecoder decoder = new StatusEventDecoder();

    private static ByteBuffer buffer(boolean direct, int size) {
        return direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
    }

    private int writeSample(ByteBuffer b, int at) {
        return encoder.wrap(b, at).variableId(0x0102030405060708L).sequence(42).sourceTimeNanos(1_700_000_000_123_456_789L)
                .deadlineNanos(1_700_000_000_173_456_789L).serviceClass(ServiceClass.HRT).hopCount(3).pathId(0xBEEF)
                .doublePayload(59.98).seal();
    }

    @Test
    void layoutIsBigEndianAtTheDocumentedOffsets() {
        ByteBuffer b = ByteBuffer.allocate(64);
        int len = writeSample(b, 0);
        assertEquals(56, len);
        String hex = HexFormat.of().formatHex(b.array(), 0, 44);
        assertEquals("4753" + "01" + "01" + "01" + "03" + "beef"
                + "0102030405060708"
                + "000000000000002a"
                + "17979cfe3d85cd15"
                + "17979cfe4080bd95"
                + "01" + "00" + "0008", hex);
        assertEquals(Double.doubleToRawLongBits(59.98), b.getLong(48));
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(b.array(), 0, 44);
        crc.update(b.array(), 48, 8);
        assertEquals((int) crc.getValue(), b.getInt(44));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void doubleRoundTripsAtAnOffsetInHeapAndDirectBuffers(boolean direct) {
        ByteBuffer b = buffer(direct, 200);
        int len = writeSample(b, 17);
        b.position(5).limit(150);
        assertEquals(RejectReason.NONE, decoder.wrap(b, 17, len));
        assertEquals(5, b.position(), "position restored");
        assertEquals(150, b.limit(), "limit restored");
        assertEquals(0x0102030405060708L, decoder.variableId());
        assertEquals(42, decoder.sequence());
        assertEquals(1_700_000_000_123_456_789L, decoder.sourceTimeNanos());
        assertEquals(1_700_000_000_173_456_789L, decoder.deadlineNanos());
        assertEquals(ServiceClass.HRT, decoder.serviceClass());
        assertEquals(3, decoder.hopCount());
        assertEquals(0xBEEF, decoder.pathId());
        assertEquals(PayloadType.DOUBLE, decoder.payloadType());
        assertEquals(59.98, decoder.doubleValue());
        assertEquals(len, decoder.frameLength());
        assertEquals(17 + 48, decoder.payloadOffset());
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void floatVectorAndRawRoundTrip(boolean direct) {
        ByteBuffer b = buffer(direct, 2048);
        float[] phasors = {1.0f, -0.5f, Float.NaN, 3.25e7f, 0f, -0f};
        int len = encoder.wrap(b, 0).variableId(9).floatPayload(phasors, 6).seal();
        assertEquals(48 + 24, len);
        assertEquals(RejectReason.NONE, decoder.wrap(b, 0, len));
        assertEquals(6, decoder.floatCount());
        for (int i = 0; i < 6; i++) {
            assertEquals(Float.floatToRawIntBits(phasors[i]), Float.floatToRawIntBits(decoder.floatAt(i)), "float " + i);
        }
        assertThrows(IllegalStateException.class, decoder::doubleValue);

        byte[] raw = new byte[WireFormat.MAX_PAYLOAD_LENGTH];
        for (int i = 0; i < raw.length; i++) {
            raw[i] = (byte) (i * 31);
        }
        len = encoder.wrap(b, 0).variableId(10).serviceClass(ServiceClass.BE).rawPayload(raw, 0, raw.length).seal();
        assertEquals(WireFormat.MAX_FRAME_LENGTH, len);
        assertEquals(RejectReason.NONE, decoder.wrap(b, 0, len));
        byte[] copy = new byte[raw.length];
        assertEquals(raw.length, decoder.copyPayload(copy, 0));
        assertArrayEquals(raw, copy);
    }

    @Test
    void decodingIgnoresTheBuffersByteOrderSetting() {
        ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        int len = writeSample(b, 0);
        assertEquals(RejectReason.NONE, decoder.wrap(b, 0, len));
        assertEquals(0x0102030405060708L, decoder.variableId());
        assertEquals((byte) 0x01, b.get(8), "big-endian on the wire whatever the buffer's order");
    }

    @Test
    void emptyRawPayloadIsValid() {
        ByteBuffer b = ByteBuffer.allocate(48);
        int len = encoder.wrap(b, 0).variableId(1).rawPayload(new byte[0], 0, 0).seal();
        assertEquals(48, len);
        assertEquals(RejectReason.NONE, decoder.wrap(b, 0, len));
        assertEquals(0, decoder.payloadLength());
    }

    @Test
    void routerRewritesHopCountAndResealsInPlace() {
        ByteBuffer b = ByteBuffer.allocate(64);
        int len = writeSample(b, 0);
        encoder.wrapExisting(b, 0);
        encoder.hopCount(encoder.hopCount() + 1).seal();
        assertEquals(RejectReason.NONE, decoder.wrap(b, 0, len));
        assertEquals(4, decoder.hopCount());
        assertEquals(59.98, decoder.doubleValue());
    }

    @Test
    void everySingleBitFlipIsRejected() {
        ByteBuffer b = ByteBuffer.allocate(64);
        int len = writeSample(b, 0);
        for (int bit = 0; bit < len * 8; bit++) {
            b.put(bit / 8, (byte) (b.get(bit / 8) ^ (1 << (bit % 8))));
            assertNotEquals(RejectReason.NONE, decoder.wrap(b, 0, len), "bit " + bit);
            b.put(bit / 8, (byte) (b.get(bit / 8) ^ (1 << (bit % 8))));
        }
        assertEquals(RejectReason.NONE, decoder.wrap(b, 0, len));
    }

    @Test
    void eachMalformationHasItsReason() {
        ByteBuffer b = ByteBuffer.allocate(2048);
        int len = writeSample(b, 0);
        assertEquals(RejectReason.TRUNCATED, decoder.wrap(b, 0, 47));
        assertEquals(RejectReason.OVERSIZE, decoder.wrap(b, 0, WireFormat.MAX_FRAME_LENGTH + 1));
        assertEquals(RejectReason.LENGTH_MISMATCH, decoder.wrap(b, 0, len + 1));
        assertEquals(RejectReason.LENGTH_MISMATCH, decoder.wrap(b, 0, len - 1));

        assertReason(RejectReason.BAD_MAGIC, b, len, 0, (byte) 'X', false);
        assertReason(RejectReason.UNSUPPORTED_VERSION, b, len, WireFormat.VERSION_OFFSET, (byte) 2, false);
        assertReason(RejectReason.UNKNOWN_FRAME_TYPE, b, len, WireFormat.FRAME_TYPE_OFFSET, (byte) 9, false);
        assertReason(RejectReason.RESERVED_BITS_SET, b, len, WireFormat.FLAGS_OFFSET, (byte) 0x80, false);
        assertReason(RejectReason.CHECKSUM_MISMATCH, b, len, 50, (byte) 0x55, false);
        assertReason(RejectReason.BAD_SERVICE_CLASS, b, len, WireFormat.SERVICE_CLASS_OFFSET, (byte) 7, true);
        assertReason(RejectReason.BAD_PAYLOAD_TYPE, b, len, WireFormat.PAYLOAD_TYPE_OFFSET, (byte) 3, true);
        for (PayloadType typed : new PayloadType[] {PayloadType.DOUBLE, PayloadType.FLOAT_VECTOR}) {
            int seven = encoder.wrap(b, 0).rawPayloadLength(7).seal();
            b.put(WireFormat.PAYLOAD_TYPE_OFFSET, (byte) typed.code());
            encoder.wrapExisting(b, 0).seal();
            assertEquals(RejectReason.BAD_PAYLOAD_LENGTH, decoder.wrap(b, 0, seven), typed.name());
        }
    }

    /** Sets one byte, optionally reseals so only that field is wrong, and expects the reason. */
    private void assertReason(RejectReason expected, ByteBuffer b, int len, int index, byte value, boolean reseal) {
        writeSample(b, 0);
        b.put(index, value);
        if (reseal) {
            encoder.wrapExisting(b, 0).seal();
        }
        assertEquals(expected, decoder.wrap(b, 0, len));
    }

    @Test
    void localMisuseOfTheEncoderThrowsWithAMessage() {
        ByteBuffer small = ByteBuffer.allocate(60);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> encoder.wrap(small, 20)).getMessage()
                .contains("no room"));
        encoder.wrap(small, 0);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> encoder.rawPayload(new byte[13], 0, 13))
                .getMessage().contains("does not fit"));
        ByteBuffer big = ByteBuffer.allocate(4096);
        encoder.wrap(big, 0);
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> encoder.rawPayload(new byte[1425], 0, 1425)).getMessage().contains("exceeds"));
        assertThrows(IllegalArgumentException.class, () -> encoder.hopCount(256));
        assertThrows(IllegalArgumentException.class, () -> encoder.pathId(70000));
    }
}
