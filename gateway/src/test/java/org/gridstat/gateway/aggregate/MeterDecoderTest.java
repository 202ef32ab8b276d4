package org.gridstat.gateway.aggregate;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class MeterDecoderTest {
    private static final long NOW = 1_800_000_000_000_000_000L;
    private static final long NOW_MICROS = NOW / 1000;
    private static final int ALL = ValueKind.KNOWN_MASK;

    private final MeterDecoder decoder = new MeterDecoder(2_000_000_000L, 60_000_000_000L);

    @Test
    void helloAndReadingAreLaidOutByteForByte() {
        byte[] h = MeterFormat.hello(12_345_678, 7);
        assertEquals("4d010010" + "00bc614e" + "0007" + "01" + "00", HexFormat.of().formatHex(h, 0, 12));
        assertEquals(16, h.length);
        byte[] r = MeterFormat.reading(NOW_MICROS, 1, ALL, 1.5f, -2f, 230f);
        ByteBuffer b = ByteBuffer.wrap(r);
        assertEquals(32, r.length);
        assertEquals(0x4D, r[0]);
        assertEquals(2, r[1]);
        assertEquals(32, b.getShort(2));
        assertEquals(NOW_MICROS, b.getLong(4));
        assertEquals(1, r[12]);
        assertEquals(7, r[13]);
        assertEquals(0, b.getShort(14));
        assertEquals(1.5f, b.getFloat(16));
        assertEquals(-2f, b.getFloat(20));
        assertEquals(230f, b.getFloat(24));
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(r, 0, 28);
        assertEquals((int) crc.getValue(), b.getInt(28));
        crc.reset();
        crc.update(h, 0, 12);
        assertEquals((int) crc.getValue(), ByteBuffer.wrap(h).getInt(12));
        // CRC-32C's check value: "123456789" gives 0xE3069283
        crc.reset();
        crc.update("123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals(0xE3069283L, crc.getValue());
    }

    @Test
    void readsHelloThenReadings() {
        ByteBuffer in = stream(MeterFormat.hello(0xFFFF_FFFE, 65_535), MeterFormat.reading(NOW_MICROS - 5, 2, 5, 10f, 99f, 231f));
        assertEquals(DecodeOutcome.HELLO, decoder.next(in, NOW));
        assertEquals(0xFFFF_FFFEL, decoder.meterId());
        assertEquals(65_535, decoder.regionId());
        assertEquals(DecodeOutcome.READING, decoder.next(in, NOW));
        assertEquals(NOW_MICROS - 5, decoder.timeMicros());
        assertEquals((NOW_MICROS - 5) * 1000, decoder.timeNanos());
        assertEquals(2, decoder.quality());
        assertEquals(5, decoder.kinds());
        assertEquals(10f, decoder.value(ValueKind.ACTIVE_POWER));
        assertEquals(231f, decoder.value(ValueKind.VOLTAGE));
        assertEquals(0f, decoder.value(ValueKind.REACTIVE_POWER), "an absent kind is written as 0");
        assertEquals(DecodeOutcome.NEED_MORE, decoder.next(in, NOW));
        assertEquals(0, decoder.bytesSkipped());
        assertEquals(0, decoder.buffered());
    }

    @Test
    void recordsSplitAtEveryByteComeOutWhole() {
        byte[] all = concat(MeterFormat.hello(1, 2), MeterFormat.reading(NOW_MICROS, 0, ALL, 1f, 2f, 3f),
                MeterFormat.reading(NOW_MICROS + 1, 0, ALL, 4f, 5f, 6f));
        for (int cut = 0; cut <= all.length; cut++) {
            MeterDecoder d = new MeterDecoder(2_000_000_000L, 60_000_000_000L);
            List<DecodeOutcome> got = new ArrayList<>();
            drain(d, ByteBuffer.wrap(all, 0, cut), got);
            drain(d, ByteBuffer.wrap(all, cut, all.length - cut), got);
            assertEquals(List.of(DecodeOutcome.HELLO, DecodeOutcome.READING, DecodeOutcome.READING), got, "cut at " + cut);
            assertEquals(NOW_MICROS + 1, d.timeMicros());
        }
        // and one byte at a time
        MeterDecoder d = new MeterDecoder(2_000_000_000L, 60_000_000_000L);
        List<DecodeOutcome> got = new ArrayList<>();
        for (byte x : all) {
            drain(d, ByteBuffer.wrap(new byte[] {x}), got);
        }
        assertEquals(3, got.size());
    }

    @Test
    void garbageIsSkippedAndCountedAndTheNextRecordFound() {
        byte[] reading = MeterFormat.reading(NOW_MICROS, 0, ALL, 1f, 2f, 3f);
        byte[] damaged = reading.clone();
        damaged[20] ^= 1;
        ByteBuffer in = stream(new byte[] {1, 2, 3}, damaged, reading);
        List<DecodeOutcome> got = new ArrayList<>();
        drain(decoder, in, got);
        assertEquals(List.of(DecodeOutcome.BAD_CHECKSUM, DecodeOutcome.READING), got);
        assertEquals(3 + 32, decoder.bytesSkipped(), "the junk and the damaged record, byte by byte");
    }

    @Test
    void unknownTypeAndBadLengthSkipOneByte() {
        byte[] reading = MeterFormat.reading(NOW_MICROS, 0, ALL, 1f, 2f, 3f);
        ByteBuffer in = stream(new byte[] {0x4D, 9, 0, 32}, new byte[] {0x4D, 2, 0, 31}, reading);
        List<DecodeOutcome> got = new ArrayList<>();
        drain(decoder, in, got);
        assertEquals(List.of(DecodeOutcome.UNKNOWN_TYPE, DecodeOutcome.BAD_LENGTH, DecodeOutcome.READING), got);
        assertEquals(8, decoder.bytesSkipped());
    }

    @Test
    void contentRejectsConsumeTheWholeRecord() {
        ByteBuffer in = stream(
                MeterFormat.reading(NOW_MICROS, 0, 8, 1f, 2f, 3f),
                MeterFormat.reading(NOW_MICROS, 0, ALL, Float.NaN, 2f, 3f),
                MeterFormat.reading(NOW_MICROS, 0, 2, Float.NaN, 2f, Float.POSITIVE_INFINITY), // NaN where no kind: fine
                MeterFormat.reading(NOW_MICROS + 2_000_001, 0, ALL, 1f, 2f, 3f),
                MeterFormat.reading(NOW_MICROS + 2_000_000, 0, ALL, 1f, 2f, 3f),
                MeterFormat.reading(NOW_MICROS - 60_000_001, 0, ALL, 1f, 2f, 3f),
                MeterFormat.reading(NOW_MICROS - 60_000_000, 0, ALL, 1f, 2f, 3f),
                MeterFormat.reading(Long.MAX_VALUE, 0, ALL, 1f, 2f, 3f),
                MeterFormat.reading(Long.MIN_VALUE, 0, ALL, 1f, 2f, 3f),
                helloOfVersion(2));
        List<DecodeOutcome> got = new ArrayList<>();
        drain(decoder, in, got);
        assertEquals(List.of(DecodeOutcome.UNKNOWN_KIND, DecodeOutcome.BAD_VALUE, DecodeOutcome.READING,
                DecodeOutcome.TIME_AHEAD, DecodeOutcome.READING, DecodeOutcome.TIME_BEHIND, DecodeOutcome.READING,
                DecodeOutcome.TIME_AHEAD, DecodeOutcome.TIME_BEHIND, DecodeOutcome.BAD_VERSION), got);
        assertEquals(0, decoder.bytesSkipped());
        for (DecodeOutcome o : got) {
            assertTrue(o.wholeRecord());
        }
    }

    @Test
    void decodingAllocatesNothingPerReading() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        byte[] many = new byte[32 * 1000];
        ByteBuffer w = ByteBuffer.wrap(many);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        for (int i = 0; i < 1000; i++) {
            MeterFormat.writeReading(w, NOW_MICROS + i, 0, ALL, i, -i, 230f, crc);
        }
        ByteBuffer in = ByteBuffer.wrap(many);
        for (int round = 0; round < 20; round++) { // warm up
            in.clear();
            while (decoder.next(in, NOW) != DecodeOutcome.NEED_MORE) {
            }
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        int n = 0;
        for (int round = 0; round < 100; round++) {
            in.clear();
            while (decoder.next(in, NOW) == DecodeOutcome.READING) {
                n++;
            }
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(100_000, n);
        assertTrue(allocated < 10_000, "allocated " + allocated + " bytes for 100,000 readings");
    }

    private static byte[] helloOfVersion(int version) {
        byte[] h = MeterFormat.hello(1, 1);
        h[10] = (byte) version;
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(h, 0, 12);
        ByteBuffer.wrap(h).putInt(12, (int) crc.getValue());
        return h;
    }

    static void drain(MeterDecoder d, ByteBuffer in, List<DecodeOutcome> got) {
        DecodeOutcome o;
        while ((o = d.next(in, NOW)) != DecodeOutcome.NEED_MORE) {
            got.add(o);
        }
        assertFalse(in.hasRemaining());
    }

    static ByteBuffer stream(byte[]... parts) {
        return ByteBuffer.wrap(concat(parts));
    }

    static byte[] concat(byte[]... parts) {
        ByteBuffer b = ByteBuffer.allocate(java.util.Arrays.stream(parts).mapToInt(p -> p.length).sum());
        for (byte[] p : parts) {
            b.put(p);
        }
        return b.array();
    }
}
