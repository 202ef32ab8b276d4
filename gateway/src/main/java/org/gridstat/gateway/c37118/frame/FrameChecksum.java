package org.gridstat.gateway.c37118.frame;

import java.nio.ByteBuffer;

/**
 * CRC-CCITT as C37.118.2 Annex B defines it: polynomial 0x1021, initial value 0xFFFF, no
 * reflection, no final XOR (the "CRC-16/CCITT-FALSE" of catalogues; "123456789" gives 0x29B1).
 * Table driven, one lookup per byte; no allocation.
 */
public final class FrameChecksum {
    private static final int[] TABLE = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int crc = i << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
            TABLE[i] = crc & 0xFFFF;
        }
    }

    private FrameChecksum() {
    }

    public static int compute(ByteBuffer buffer, int offset, int length) {
        int crc = 0xFFFF;
        for (int i = offset, end = offset + length; i < end; i++) {
            crc = ((crc << 8) ^ TABLE[((crc >>> 8) ^ buffer.get(i)) & 0xFF]) & 0xFFFF;
        }
        return crc;
    }

    public static int compute(byte[] bytes, int offset, int length) {
        int crc = 0xFFFF;
        for (int i = offset, end = offset + length; i < end; i++) {
            crc = ((crc << 8) ^ TABLE[((crc >>> 8) ^ bytes[i]) & 0xFF]) & 0xFFFF;
        }
        return crc;
    }
}
