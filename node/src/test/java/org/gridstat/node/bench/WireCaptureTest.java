package org.gridstat.node.bench;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.HdrHistogram.Histogram;
import org.gridstat.core.wire.WireFormat;
import org.junit.jupiter.api.Test;

/** Pairing a hop's entering and leaving frames in a capture file as tcpdump writes it. */
class WireCaptureTest {
    private static final int IN = 40001;
    private static final int OUT = 40002;
    private static final long T = 1_790_000_000L * 1_000_000_000L;

    private final ByteArrayOutputStream pcap = new ByteArrayOutputStream();

    WireCaptureTest() {
        ByteBuffer g = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        g.putInt(0xa1b23c4d).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(128).putInt(1);
        pcap.writeBytes(g.array());
    }

    /** One captured UDP datagram to {@code port} carrying a frame header with {@code sequence}. */
    private void record(long stampNanos, int port, long sequence, int capturedLength) {
        ByteBuffer p = ByteBuffer.allocate(14 + 20 + 8 + WireFormat.HEADER_LENGTH); // big-endian, as on the wire
        p.putShort(12, (short) 0x0800); // IPv4
        p.position(14);
        p.put((byte) 0x45); // version 4, 20-byte header
        p.put(14 + 9, (byte) 17); // UDP
        p.position(14 + 20);
        p.putShort((short) 50000).putShort((short) port);
        p.putLong(14 + 20 + 8 + WireFormat.SEQUENCE_OFFSET, sequence);
        ByteBuffer h = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt((int) (stampNanos / 1_000_000_000L)).putInt((int) (stampNanos % 1_000_000_000L))
                .putInt(capturedLength).putInt(p.capacity());
        pcap.writeBytes(h.array());
        pcap.write(p.array(), 0, capturedLength);
    }

    private WireCapture.HopLatency pair() throws IOException {
        return WireCapture.pair(new ByteArrayInputStream(pcap.toByteArray()), IN, OUT);
    }

    @Test
    void eachFrameLeavingIsMatchedToItsEntryBySequence() throws IOException {
        int whole = 14 + 20 + 8 + WireFormat.HEADER_LENGTH;
        record(T + 100, IN, 1, whole);
        record(T + 200, IN, 2, whole);
        record(T + 300, OUT, 99, whole); // left without having entered while capturing: ignored
        record(T + 400, IN, 3, 30); // cut short before the sequence: ignored
        record(T + 80_200, OUT, 2, whole); // out of order: 80 µs
        record(T + 50_100, OUT, 1, whole); // 50 µs
        record(T + 90_000, IN, 4, whole); // never left
        WireCapture.HopLatency hop = pair();
        Histogram h = hop.nanos();
        assertEquals(2, h.getTotalCount());
        assertTrue(h.valuesAreEquivalent(50_000, h.getMinValue()), "min " + h.getMinValue());
        assertTrue(h.valuesAreEquivalent(80_000, h.getMaxValue()), "max " + h.getMaxValue());
        assertEquals(1, hop.unmatched(), "frame 4 entered and did not leave");
    }

    @Test
    void aLastRecordCutShortWhenTcpdumpStoppedEndsTheCapture() throws IOException {
        int whole = 14 + 20 + 8 + WireFormat.HEADER_LENGTH;
        record(T, IN, 7, whole);
        record(T + 30_000, OUT, 7, whole);
        ByteBuffer h = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putInt(0).putInt(0).putInt(100).putInt(100);
        pcap.writeBytes(h.array());
        pcap.write(new byte[10], 0, 10); // 10 of the 100 bytes announced
        WireCapture.HopLatency hop = pair();
        assertEquals(1, hop.nanos().getTotalCount());
    }

    @Test
    void aFileThatIsNotANanosecondCaptureIsRefused() {
        byte[] microseconds = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN).putInt(0xa1b2c3d4).array();
        IOException e = assertThrows(IOException.class,
                () -> WireCapture.pair(new ByteArrayInputStream(microseconds), IN, OUT));
        assertTrue(e.getMessage().contains("nanosecond"), e.getMessage());
    }

    @Test
    void aRecordLongerThanTheSnapshotLengthIsRefused() {
        ByteBuffer h = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putInt(0).putInt(0).putInt(4096).putInt(4096);
        pcap.writeBytes(h.array());
        assertThrows(IOException.class, this::pair);
    }
}
