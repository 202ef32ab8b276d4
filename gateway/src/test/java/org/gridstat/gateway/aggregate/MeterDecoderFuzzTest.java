package org.gridstat.gateway.aggregate;

import static org.junit.jupiter.api.Assertions.*;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Whatever bytes a meter sends, cut into whatever chunks, the decoder answers and never throws,
 * holds at most its buffer, and accounts for every byte: each is in a whole record (taken or
 * refused for its content), skipped, or still buffered. Random bytes rarely carry a good CRC, so
 * each input is also tried with every candidate record's length and checksum made right, which
 * takes it past the framing checks to the content rules (version, kinds, values, time window).
 */
class MeterDecoderFuzzTest {
    private static final long NOW = 1_800_000_000_000_000_000L;

    @FuzzTest(maxDuration = "10s")
    void decodeArbitraryBytes(byte[] data) {
        check(data);
        check(sealed(data));
    }

    private static void check(byte[] data) {
        MeterDecoder d = new MeterDecoder(2_000_000_000L, 60_000_000_000L);
        int chunk = data.length == 0 ? 1 : 1 + (data[0] & 0x3F);
        long inRecords = 0;
        for (int at = 0; at < data.length; at += chunk) {
            ByteBuffer in = ByteBuffer.wrap(data, at, Math.min(chunk, data.length - at));
            DecodeOutcome o;
            while ((o = d.next(in, NOW)) != DecodeOutcome.NEED_MORE) {
                assertNotNull(o);
                if (o.wholeRecord()) {
                    inRecords += o == DecodeOutcome.HELLO || o == DecodeOutcome.BAD_VERSION
                            ? MeterFormat.HELLO_LENGTH : MeterFormat.READING_LENGTH;
                } else {
                    assertTrue(o.reject());
                }
                if (o == DecodeOutcome.READING) {
                    assertTrue(Math.abs(d.timeMicros() - NOW / 1000) <= 60_000_000L);
                    for (ValueKind k : ValueKind.values()) {
                        if ((d.kinds() & k.bit()) != 0) {
                            assertTrue(Float.isFinite(d.value(k)));
                        }
                    }
                }
            }
            assertFalse(in.hasRemaining());
            assertTrue(d.buffered() < MeterDecoder.BUFFER_LENGTH);
        }
        assertEquals(data.length, inRecords + d.bytesSkipped() + d.buffered());
    }

    /** The input with a correct CRC-32C written into each record that its header would begin. */
    private static byte[] sealed(byte[] data) {
        byte[] s = data.clone();
        ByteBuffer b = ByteBuffer.wrap(s);
        CRC32C crc = new CRC32C();
        int at = 0;
        while (at + MeterFormat.HEADER_LENGTH <= s.length) {
            int length = MeterFormat.lengthOf(s[at + 1] & 0xFF);
            if (s[at] != MeterFormat.MAGIC || length < 0 || at + length > s.length) {
                at++;
                continue;
            }
            b.putShort(at + 2, (short) length);
            crc.reset();
            crc.update(s, at, length - 4);
            b.putInt(at + length - 4, (int) crc.getValue());
            at += length;
        }
        return s;
    }
}
