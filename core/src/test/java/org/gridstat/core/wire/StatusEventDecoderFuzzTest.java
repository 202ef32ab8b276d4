package org.gridstat.core.wire;

import static org.junit.jupiter.api.Assertions.*;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;

/**
 * Whatever bytes arrive, the decoder answers with a reason and never throws; a frame it accepts
 * re-encodes to the very same bytes. The seed corpus lives in the resources folder of the same
 * name; the default test run fuzzes briefly beyond it (see the module's surefire settings).
 */
class StatusEventDecoderFuzzTest {
    private final StatusEventDecoder decoder = new StatusEventDecoder();
    private final StatusEventEncoder encoder = new StatusEventEncoder();
    private final ByteBuffer direct = ByteBuffer.allocateDirect(4096);
    private final ByteBuffer reencoded = ByteBuffer.allocate(4096);

    @FuzzTest(maxDuration = "10s")
    void decodeArbitraryBytes(byte[] data) {
        decodeAndCheck(data);
        // Random bytes rarely carry a valid CRC; decode them again with it fixed, so the checks that
        // follow the checksum get fuzzed too.
        if (data.length >= WireFormat.HEADER_LENGTH && data.length <= WireFormat.MAX_FRAME_LENGTH) {
            ByteBuffer b = ByteBuffer.wrap(data);
            int claimed = b.getShort(WireFormat.PAYLOAD_LENGTH_OFFSET) & 0xFFFF;
            if (WireFormat.HEADER_LENGTH + claimed <= data.length) {
                encoder.wrapExisting(b, 0).seal();
                decodeAndCheck(data);
            }
        }
    }

    private void decodeAndCheck(byte[] data) {
        RejectReason heap = decoder.wrap(ByteBuffer.wrap(data), 0, data.length);
        assertNotNull(heap);

        int n = Math.min(data.length, direct.capacity());
        direct.clear();
        direct.put(data, 0, n).flip();
        RejectReason onDirect = decoder.wrap(direct, 0, n);
        if (n == data.length) {
            assertEquals(heap, onDirect, "heap and direct buffers decide alike");
        }
        if (onDirect != RejectReason.NONE) {
            return;
        }
        // Accepted: every accessor works, and re-encoding the fields reproduces the frame exactly.
        encoder.wrap(reencoded, 0).variableId(decoder.variableId()).sequence(decoder.sequence())
                .sourceTimeNanos(decoder.sourceTimeNanos()).deadlineNanos(decoder.deadlineNanos())
                .serviceClass(decoder.serviceClass()).hopCount(decoder.hopCount()).pathId(decoder.pathId());
        // Typed accessors must work on whatever was accepted; the comparison itself is on raw bits,
        // because a float or double NaN may change its payload bits when it passes through a register.
        switch (decoder.payloadType()) {
            case DOUBLE:
                decoder.doubleValue();
                break;
            case FLOAT_VECTOR:
                for (int i = 0; i < decoder.floatCount(); i++) {
                    decoder.floatAt(i);
                }
                break;
            default:
                break;
        }
        byte[] payload = new byte[decoder.payloadLength()];
        decoder.copyPayload(payload, 0);
        encoder.rawPayload(payload, 0, payload.length);
        reencoded.put(WireFormat.PAYLOAD_TYPE_OFFSET, (byte) decoder.payloadType().code());
        encoder.wrapExisting(reencoded, 0);
        int len = encoder.seal();
        assertEquals(n, len);
        for (int i = 0; i < n; i++) {
            assertEquals(direct.get(i), reencoded.get(i), "byte " + i);
        }
    }
}
